// What the processor offers: see CPUFeatures.h.

#include "CPUFeatures.h"

#if defined(__x86_64__) || defined(__i386__)

#include <cpuid.h>

_Atomic int cuekit_cpu_ssse3 = 0;
_Atomic int cuekit_cpu_avx2 = 0;

int cuekit_cpu_ask_ssse3(void) {
    unsigned eax, ebx, ecx, edx;
    int answer = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_SSSE3) ? 2 : 1;
    atomic_store_explicit(&cuekit_cpu_ssse3, answer, memory_order_relaxed);
    return answer;
}

int cuekit_cpu_ask_avx2(void) {
    unsigned eax, ebx, ecx, edx;
    bool avx2 = false;
    // AVX itself, and the system's XSAVE of the vector registers (XCR0 bits 1 and 2).
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_OSXSAVE) && (ecx & bit_AVX)) {
        unsigned xcr0Low, xcr0High;
        __asm__("xgetbv" : "=a"(xcr0Low), "=d"(xcr0High) : "c"(0));
        avx2 = (xcr0Low & 6) == 6 && __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (ebx & bit_AVX2);
    }
    int answer = avx2 ? 2 : 1;
    atomic_store_explicit(&cuekit_cpu_avx2, answer, memory_order_relaxed);
    return answer;
}

#endif
