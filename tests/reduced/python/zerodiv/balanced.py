def ratio():
    0 / 0


def c():
    ratio()


c()
