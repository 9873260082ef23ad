def ratio():
    0 / 0


def h():
    ratio()


h()
