(0 .x.length)
