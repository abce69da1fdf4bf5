// What the processor offers beyond the baseline the compiler may assume: asked once, then
// remembered. Private to CCueKitBytes (not in include/). The checks are inline, a load and a
// compare, since the scans ask on every block (a call cost some 30 instructions a cue).

#ifndef CCUEKITBYTES_CPU_FEATURES_H
#define CCUEKITBYTES_CPU_FEATURES_H

#include <stdbool.h>

#if defined(__x86_64__) || defined(__i386__)

#include <stdatomic.h>

/// What was found: 0 when not asked yet, 1 for no, 2 for yes.
extern _Atomic int cuekit_cpu_ssse3;
extern _Atomic int cuekit_cpu_avx2;

/// Ask the processor (once: the answer is stored in the variables above) and return the answer.
int cuekit_cpu_ask_ssse3(void);
int cuekit_cpu_ask_avx2(void);

/// Whether the processor has SSSE3 (every x86-64 processor since 2006 or so).
static inline bool cuekit_cpu_has_ssse3(void) {
    int answer = atomic_load_explicit(&cuekit_cpu_ssse3, memory_order_relaxed);
    if (__builtin_expect(answer == 0, 0)) answer = cuekit_cpu_ask_ssse3();
    return answer == 2;
}

/// Whether the processor has AVX2 and the system saves its registers (every x86-64 processor
/// since 2013 or so).
static inline bool cuekit_cpu_has_avx2(void) {
    int answer = atomic_load_explicit(&cuekit_cpu_avx2, memory_order_relaxed);
    if (__builtin_expect(answer == 0, 0)) answer = cuekit_cpu_ask_avx2();
    return answer == 2;
}

#endif

#endif
