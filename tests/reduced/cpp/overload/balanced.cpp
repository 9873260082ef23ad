template <typename> scale() {}
int a { scale(); }
