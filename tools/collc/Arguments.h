//===- Arguments.h - collc's command-line flags -----------------*- C++ -*-===//
#ifndef COLLC_TOOLS_ARGUMENTS_H
#define COLLC_TOOLS_ARGUMENTS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace collc {

/// The value of `flag` when argv[i] is it: "--flag=VALUE", or "--flag
/// VALUE" (then i moves past VALUE). Nothing for another argument, or for
/// a flag whose value is missing (a usage error the caller names).
inline std::optional<std::string> flagValue(llvm::StringRef flag, int &i,
                                            int argc, char **argv) {
  llvm::StringRef arg = argv[i];
  if (!arg.consume_front(flag))
    return std::nullopt;
  if (arg.consume_front("="))
    return arg.str();
  if (arg.empty() && i + 1 < argc)
    return std::string(argv[++i]);
  return std::nullopt;
}

} // namespace collc

#endif
