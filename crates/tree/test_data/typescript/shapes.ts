interface Shape {
  area(): number;
  readonly name?: string;
}

type Pair<T> = [T, T];
type Op = { kind: "add"; a: number; b: number } | { kind: "neg"; value: number };

enum Color {
  Red,
  Green = 2,
  Blue,
}

abstract class Base implements Shape {
  static count = 0;
  protected constructor(public readonly name: string) {
    Base.count++;
  }
  abstract area(): number;
}

class Circle extends Base {
  constructor(private r: number) {
    super("circle");
  }
  area(): number {
    return Math.PI * this.r ** 2;
  }
}

function evaluate(op: Op): number {
  switch (op.kind) {
    case "add":
      return op.a + op.b;
    case "neg":
      return -op.value;
    default:
      return 0;
  }
}

function first<T>(items: T[], fallback: T): T {
  return items.length > 0 ? items[0] : fallback;
}

const shapes: Shape[] = [new Circle(1), { area: () => 6, name: "rect" }];
let total = 0;
for (const s of shapes) {
  total += s.area();
}
const counts: Record<string, number> = {};
for (let i = 0; i < shapes.length; i++) {
  const key = shapes[i].name ?? "unknown";
  counts[key] = (counts[key] || 0) + 1;
}
const pair: Pair<number> = [1, 2];
const results = [{ kind: "add", a: 1, b: 2 } as Op, { kind: "neg", value: 3 } as Op].map(evaluate);
let label: string;
if (results.length > 2) {
  label = "many";
} else if (results.length === 2) {
  label = `two ${results[0]}`;
} else {
  label = "few";
}
try {
  JSON.parse("{");
} catch (e: unknown) {
  label += e instanceof Error ? "!" : "?";
}
async function later(ms: number): Promise<void> {
  await new Promise<void>((resolve) => setTimeout(resolve, ms));
}
console.log(total.toFixed(2), counts, pair, label, first(results, -1), Color.Blue, Base.count);
