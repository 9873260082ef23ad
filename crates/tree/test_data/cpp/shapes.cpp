#include <cstdio>
#include <vector>
#include <memory>

namespace geo {

template <typename T>
struct Point {
  T x, y;
  Point operator+(const Point &o) const { return {x + o.x, y + o.y}; }
};

class Shape {
public:
  virtual ~Shape() = default;
  virtual double area() const = 0;
  static int count;
};

int Shape::count = 0;

class Circle : public Shape {
  double r_;
public:
  explicit Circle(double r) : r_(r) { ++count; }
  double area() const override { return 3.14159 * r_ * r_; }
};

class Rect final : public Shape {
  double w_, h_;
public:
  Rect(double w, double h) : w_(w), h_(h) {}
  double area() const override { return w_ * h_; }
};

} // namespace geo

enum class Color { Red, Green = 2, Blue };

static auto total(const std::vector<std::unique_ptr<geo::Shape>> &shapes) -> double {
  double sum = 0;
  for (const auto &s : shapes) {
    sum += s->area();
  }
  return sum;
}

int main(int argc, char **argv) {
  std::vector<std::unique_ptr<geo::Shape>> shapes;
  shapes.push_back(std::make_unique<geo::Circle>(1.0));
  shapes.emplace_back(new geo::Rect(2, 3));
  geo::Point<int> p{1, 2}, q{3, 4};
  auto r = p + q;
  int arr[4] = {1, 2, 3, 4};
  int *ptr = &arr[1];
  if (argc > 1 && argv[1][0] == '-') {
    std::printf("flag %s\n", argv[1]);
  } else if (argc > 2) {
    return 2;
  } else {
    ptr++;
  }
  switch (r.x) {
  case 4:
    std::printf("four\n");
    break;
  default:
    break;
  }
  auto lambda = [&](int a, int b) mutable -> int { return a * b + *ptr; };
  try {
    throw 42;
  } catch (int e) {
    std::printf("%d\n", e + lambda(2, 3));
  }
  const char *raw = R"x(raw "string")x";
  std::printf("%.2f %d %s %d\n", total(shapes), geo::Shape::count, raw, static_cast<int>(Color::Blue));
  while (r.y-- > 0) { continue; }
  return sizeof(arr) / sizeof(arr[0]) == 4 ? 0 : 1;
}
