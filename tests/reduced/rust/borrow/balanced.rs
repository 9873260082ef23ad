struct d {
    h: String,
    e: u8
}
struct b {
    items: Vec<d>
}
impl b {
    fn a(self) {
        let g = &self;
        {
            self.items.push(d {h: format!(""), e: 0})
        }
        g;
    }
}
