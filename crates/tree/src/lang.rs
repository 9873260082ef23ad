use std::path::Path;

/// The input languages treedd knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    C,
    JavaScript,
    Java,
    /// No grammar: reduced by line/character ddmin.
    Text,
}

impl Lang {
    pub fn all() -> &'static [Lang] {
        &[Lang::C, Lang::JavaScript, Lang::Java, Lang::Text]
    }

    /// The name used by `--language`.
    pub fn name(self) -> &'static str {
        match self {
            Lang::C => "c",
            Lang::JavaScript => "javascript",
            Lang::Java => "java",
            Lang::Text => "text",
        }
    }

    pub fn from_name(name: &str) -> Option<Lang> {
        match name.to_ascii_lowercase().as_str() {
            "c" => Some(Lang::C),
            "javascript" | "js" => Some(Lang::JavaScript),
            "java" => Some(Lang::Java),
            "text" | "txt" => Some(Lang::Text),
            _ => None,
        }
    }

    /// The language implied by a file's extension, if any.
    pub fn from_path(path: &Path) -> Option<Lang> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "c" | "h" => Some(Lang::C),
            "js" | "mjs" | "cjs" => Some(Lang::JavaScript),
            "java" => Some(Lang::Java),
            "txt" => Some(Lang::Text),
            _ => None,
        }
    }
}
