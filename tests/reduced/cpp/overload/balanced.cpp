template <typename> scale() { scale(); }
