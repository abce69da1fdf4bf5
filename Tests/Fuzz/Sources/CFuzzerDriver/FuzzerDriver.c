// The declaration in include/FuzzerDriver.h is all there is: libFuzzer's runtime defines the function.
#include "FuzzerDriver.h"
