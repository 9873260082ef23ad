package main

import (
	"fmt"
	"math"
	"strings"
)

// Shape has an area.
type Shape interface {
	Area() float64
	Name() string
}

type Circle struct {
	R float64
}

type Rect struct {
	W, H float64
	tags []string
}

func (c Circle) Area() float64 { return math.Pi * c.R * c.R }
func (c Circle) Name() string  { return "circle" }

func (r *Rect) Area() float64 { return r.W * r.H }
func (r *Rect) Name() string  { return "rect" }

const limit = 10

var greeting = "hello"

func eval(ops []string) (int, error) {
	total := 0
	for i, op := range ops {
		switch {
		case op == "add":
			total += i
		case strings.HasPrefix(op, "neg"):
			total -= i
		default:
			continue
		}
	}
	if total < 0 {
		return 0, fmt.Errorf("negative: %d", total)
	} else if total > limit {
		return limit, nil
	}
	return total, nil
}

func main() {
	shapes := []Shape{Circle{R: 1}, &Rect{W: 2, H: 3}}
	counts := map[string]int{}
	for _, s := range shapes {
		counts[s.Name()]++
	}
	sum := 0.0
	for i := 0; i < len(shapes); i++ {
		sum += shapes[i].Area()
	}
	ch := make(chan int, 1)
	go func() { ch <- 42 }()
	v := <-ch
	defer fmt.Println("done")
	n, err := eval([]string{"add", "neg1", "x", "add"})
	if err != nil {
		panic(err)
	}
	if r, ok := shapes[1].(*Rect); ok {
		r.tags = append(r.tags, "big")
	}
	arr := [3]int{1, 2, 3}
	fmt.Printf("%s %.2f %v %d %d %v %v\n", greeting, sum, counts, v, n, arr[1:], `raw`)
}
