int main( { return 0 }
unsigned int*p = ;
