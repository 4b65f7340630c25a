//===- Nesting.cpp - a bound on how deep input text nests -----------------===//
#include "coll/Frontend/Nesting.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

std::optional<size_t> coll::findNestingBeyond(llvm::StringRef text,
                                              unsigned limit) {
  unsigned depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') { // a string: to its closing quote, past escapes
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = std::min(text.find('\n', i), text.size());
    } else if (c == '{' || c == '(' || c == '[' || c == '<') {
      if (++depth > limit)
        return i;
    } else if (c == '}' || c == ')' || c == ']' ||
               (c == '>' && (i == 0 || text[i - 1] != '-'))) {
      // (More closers than openers is the parser's to report.)
      if (depth > 0)
        --depth;
    }
  }
  return std::nullopt;
}

LogicalResult coll::checkNesting(const llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context, unsigned limit) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::optional<size_t> at = findNestingBeyond(buffer->getBuffer(), limit);
  if (!at)
    return success();
  auto [line, column] = sourceMgr.getLineAndColumn(
      llvm::SMLoc::getFromPointer(buffer->getBufferStart() + *at));
  return emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                       line, column),
                   "the input nests deeper than ")
         << limit << " levels (brackets, braces, parentheses and angles); "
         << "collc reads at most " << limit;
}
