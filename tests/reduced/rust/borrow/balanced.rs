struct C {
    g: String,
    d: u8
}
struct A {
    items: Vec<C>
}
impl A {
    fn a(self) {
        let f = &self;
        {
            self.items.push(C {g: format!(""), d: 0})
        }
        f;
    }
}
