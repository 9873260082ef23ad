
namespace c {

template <typename T>T scale();

}

int a {
  c::scale();
}
