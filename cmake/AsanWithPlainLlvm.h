// Force-included (-include) into every file of a -DCOLLC_SANITIZE=address
// build. LLVM's BumpPtrAllocator, inline in its headers, poisons each new
// slab under AddressSanitizer and unpoisons what it hands out; Debian's
// libMLIR is not instrumented, so where our code started a slab that the
// library then allocates from (the MLIRContext's storage uniquer), the
// library's pieces stay poisoned and its first write is reported as a
// use-after-poison that is not one. Without the slab poisoning the rest
// of ASan stays (heap, stack and global bounds, use after free).
#pragma once
#include <sanitizer/asan_interface.h>
#define __asan_poison_memory_region(addr, size) ((void)(addr), (void)(size))
