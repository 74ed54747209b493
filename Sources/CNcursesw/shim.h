#ifndef LINKSTR_CNCURSESW_SHIM_H
#define LINKSTR_CNCURSESW_SHIM_H
/* SwiftPM drops pkg-config -D flags, so the wide-char switches live here (platform notes P1). */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <execinfo.h>
#include <unistd.h>

/* The terminal's real size (ioctl is variadic, so Swift cannot call it directly). */
static inline int sw_tty_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

/* The window's size in pixels too, where the terminal fills it in (the cell size for pictures). */
static inline int sw_tty_pixels(int fd, int *rows, int *cols, int *xpixel, int *ypixel) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    *xpixel = ws.ws_xpixel;
    *ypixel = ws.ws_ypixel;
    return 0;
}

/* Not dumpable: no core file, no ptrace by other processes of the user (prctl is variadic too). */
static inline int sw_set_not_dumpable(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

/* A crash report without secrets: the signal's number and the return addresses (module and offset),
   never memory contents. backtrace() loads libgcc on its first call (malloc, not signal-safe), so
   sw_crash_report_prime runs once at start; afterwards both calls only write. */
static inline void sw_crash_report_prime(void) { void *frames[2]; (void)backtrace(frames, 2); }
static inline void sw_crash_report(int fd, int signal) {
    char number[3] = { (char)('0' + (signal / 10) % 10), (char)('0' + signal % 10), 0 };
    const char *digits = signal >= 10 ? number : number + 1;
    const char head[] = "linkstr: signal ", tail[] = "; return addresses (for a bug report):\n";
    (void)!write(fd, head, sizeof(head) - 1);
    (void)!write(fd, digits, signal >= 10 ? 2 : 1);
    (void)!write(fd, tail, sizeof(tail) - 1);
    void *frames[32];
    int n = backtrace(frames, 32);
    backtrace_symbols_fd(frames, n, fd);
}

/* C globals are not concurrency-safe in Swift 6 (P2); macros built from NCURSES_BITS are not imported (P3). */
static inline WINDOW *sw_stdscr(void) { return stdscr; }
/* wcwidth needs _XOPEN_SOURCE, which Swift's Glibc import does not define. */
static inline int sw_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }
static inline int sw_colors(void) { return COLORS; }
static inline int sw_color_pairs(void) { return COLOR_PAIRS; }
static inline int sw_lines(void) { return LINES; }
static inline int sw_cols(void) { return COLS; }
static inline int sw_escdelay_set(int ms) { return set_escdelay(ms); }
static inline attr_t sw_a_normal(void) { return A_NORMAL; }
static inline attr_t sw_a_bold(void) { return A_BOLD; }
static inline attr_t sw_a_dim(void) { return A_DIM; }
static inline attr_t sw_a_reverse(void) { return A_REVERSE; }
static inline attr_t sw_a_underline(void) { return A_UNDERLINE; }
static inline attr_t sw_a_italic(void) { return A_ITALIC; }
static inline mmask_t sw_mouse_all(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t sw_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t sw_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t sw_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t sw_button1_double(void) { return BUTTON1_DOUBLE_CLICKED; }
static inline mmask_t sw_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t sw_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline int sw_key_resize(void) { return KEY_RESIZE; }
static inline int sw_key_mouse(void) { return KEY_MOUSE; }
#endif
