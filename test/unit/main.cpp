#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "coll/Passes/Verify.h"

int main(int argc, char **argv) {
  coll::keepHeapForProofs();
  return doctest::Context(argc, argv).run();
}
