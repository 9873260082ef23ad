struct c {
    g: String,
    d: u8
}
struct a {
    items: Vec<c>
}
impl a {
    fn a(self) {
        let f = &self;
        {
            self.items.push(c {g: format!(""), d: 0})
        }
        f;
    }
}
