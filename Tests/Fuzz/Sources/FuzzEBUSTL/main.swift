import CFuzzerDriver
import Glibc

// libFuzzer's driver parses the command line (corpus folders, -max_total_time...) and calls
// `fuzzEBUSTL` with each input it tries.
var arguments = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&arguments, &argumentValues) { data, size in fuzzEBUSTL(data, size) })
