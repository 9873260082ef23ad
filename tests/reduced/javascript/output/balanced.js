b = 0
for (c of[{a: 12}, {a: 20}, {a: 10}])
  b += c.a
console.log("total: " + b)
