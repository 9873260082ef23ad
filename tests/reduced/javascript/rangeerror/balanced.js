




 Array( - Math)
