// Conversions between the public BigInt and Boost.Multiprecision's cpp_int (library-internal).
#pragma once

#include <boost/multiprecision/cpp_int.hpp>

#include "pmcount/big_int.hpp"

namespace pmcount::numeric {

using boost::multiprecision::cpp_int;

cpp_int to_cpp_int(const BigInt& value);
BigInt from_cpp_int(const cpp_int& value);

}  // namespace pmcount::numeric
