#pragma once
// coll::Error, the one exception of the collc runtime: every runtime failure
// (bad arguments, transport errors) is reported as one, with a message
// naming the problem. Plain C++17, no MPI.

#include <stdexcept>

namespace coll {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace coll
