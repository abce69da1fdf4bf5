// The physical floor for a streaming WebVTT tokenizer: read a file in 64 KiB chunks and split it into
// blocks on blank lines with memchr, counting them. No parsing, no allocation per block.
//
//   cc -O2 -o split-blocks split-blocks.c && ./split-blocks track.vtt
//
// Prints the number of blocks (a WebVTT file of N cues without NOTE/STYLE/REGION has N + 1: the
// header and the cues).
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: split-blocks FILE\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror(argv[1]);
        return 2;
    }
    static char buffer[64 * 1024];
    long blocks = 0;
    int lastWasNewline = 0;  // the previous chunk ended with '\n'
    int inBlock = 0;         // some non-blank line has been seen since the last blank line
    ssize_t count;
    while ((count = read(fd, buffer, sizeof buffer)) > 0) {
        const char *cursor = buffer, *end = buffer + count;
        while (cursor < end) {
            const char *newline = memchr(cursor, '\n', (size_t)(end - cursor));
            if (newline == NULL) {
                if (end > cursor) inBlock = 1;
                lastWasNewline = 0;
                break;
            }
            if (newline == cursor && (lastWasNewline || cursor != buffer)) {
                // an empty line: it ends the block in progress
                if (inBlock) blocks++;
                inBlock = 0;
            } else if (newline > cursor) {
                inBlock = 1;
            }
            lastWasNewline = 1;
            cursor = newline + 1;
        }
        if (count > 0 && buffer[count - 1] == '\n') lastWasNewline = 1;
    }
    if (count < 0) {
        perror(argv[1]);
        return 2;
    }
    if (inBlock) blocks++;
    close(fd);
    printf("%ld\n", blocks);
    return 0;
}
