Array(-Math)
