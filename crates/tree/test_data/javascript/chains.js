// comment
var a = 1 + 2 + 3 + 4;
a.b().c().d(function (x) { return x, a, 2; });
if (a) b(); else if (c) d(); else e();
let t = `x${a}y`;
x = y = z
