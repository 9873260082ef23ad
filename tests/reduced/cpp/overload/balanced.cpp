template <typename> scale() {}
int T { scale(); }
