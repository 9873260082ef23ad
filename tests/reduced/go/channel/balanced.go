package a

func a() {
	results <- Result{}
}
