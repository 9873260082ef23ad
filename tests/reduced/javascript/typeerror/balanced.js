
    (0 .x.length)
