#include <stdio.h>

int main(void) {
  if (1) {
    printf("Hello world!\n"); /* greet */
  }
  return 0;
}
