use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("treedd: not yet wired");
    ExitCode::from(2)
}
