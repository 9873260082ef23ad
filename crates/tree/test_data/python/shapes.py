"""Shapes and a small interpreter."""
import math
from collections import defaultdict as dd


class Shape:
    count = 0

    def __init__(self, name="shape"):
        self.name = name
        Shape.count += 1

    def area(self):
        raise NotImplementedError


class Circle(Shape):
    def __init__(self, r):
        super().__init__("circle")
        self.r = r

    def area(self):
        return math.pi * self.r ** 2


@staticmethod
def helper(*args, **kwargs):
    return len(args) + len(kwargs)


def evaluate(ops, limit=10):
    results = []
    for op, *rest in ops:
        if op == "add" and rest:
            results.append(sum(rest))
        elif op == "neg":
            results.append(-rest[0])
        else:
            continue
    i = 0
    while i < limit:
        i += 3
        if i % 2 == 0:
            break
    else:
        pass
    return results, i


def main():
    shapes = [Circle(1.0), Circle(r=2)]
    counts = dd(int)
    for s in shapes:
        counts[s.name] += 1
    total = sum(s.area() for s in shapes)
    squares = {k: v * v for k, v in enumerate(range(5)) if k % 2}
    pairs = [(a, b) for a in range(3) for b in "xy"]
    lam = lambda x, y=2: x if x > y else y
    try:
        value = 1 / 0
    except ZeroDivisionError as exc:
        value = None
    finally:
        flag = not value
    with open(__file__) as fh:
        first = fh.readline()[:10]
    text = f"{total:.2f} {counts!r} {squares} {pairs[1:3]} {lam(3)} {flag}"
    print(text, first, evaluate([("add", 1, 2), ("neg", 4), ("nop",)]))
    assert isinstance(shapes[0], Shape), "bad"
    del squares[1]
    global_value = {"a": [1, 2, (3, 4)], "b": {5, 6}}
    return global_value


if __name__ == "__main__":
    main()
