// Fixed-arity wrappers around libedit for Swift.
//
// `el_set`, `el_get` and `history` are C-variadic, which Swift cannot call, and
// Swift 6 rejects touching `stdin`/`stdout` from Swift ("not concurrency-safe"),
// so everything that needs either lives here as `static inline` functions.
// SIGINT is handled here too: the handler only bumps a counter and writes a
// byte to a self-pipe, so the line editor (via its read function) and the
// command runner (by polling the counter) both see Ctrl-C.
#ifndef EXPLORER_CLIBEDIT_SHIM_H
#define EXPLORER_CLIBEDIT_SHIM_H

#include <histedit.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

/// Byte the read function hands to libedit when Ctrl-C was pressed; it is
/// bound to the `ex-interrupt` function.
#define EX_INTERRUPT_CHAR 0x03

// Shared state must exist once per process. A `static` variable in a header
// gets a copy per object file, and a release build splits a module across
// several object files: the signal handler then counted Ctrl-C in one copy
// while the REPL read another, and the prompt was set in one copy and shown
// from another. Weak definitions have external linkage: the linker keeps one.
#define EX_SHARED __attribute__((weak))
EX_SHARED volatile sig_atomic_t ex_interrupts = 0;
/// Every Ctrl-C press so far, never reset: a password reader on one thread
/// sees a press that another thread took from `ex_interrupts` (the REPL's
/// wait for a `replay FILE` that asks from a worker).
EX_SHARED volatile sig_atomic_t ex_interrupts_ever = 0;
EX_SHARED volatile sig_atomic_t ex_winch = 0;
/// Set by SIGCONT: the REPL was stopped (Ctrl-Z) and `fg` brought it back.
EX_SHARED volatile sig_atomic_t ex_continued = 0;
EX_SHARED int ex_pipe[2] = {-1, -1};
EX_SHARED char *ex_prompt_text = NULL;
/// Written to (one byte) when output is waiting to be printed above the line
/// being edited, such as a WebSocket frame that arrived while the user types.
EX_SHARED int ex_output_pipe[2] = {-1, -1};
/// Hands over the waiting output (malloc'd, the caller frees it), or NULL
/// when nothing waits; set from Swift, called from the read function.
EX_SHARED char *(*ex_output_hook)(void) = NULL;

/// Whether Ctrl-Z is ours to handle: not when it was ignored at the start (no job control).
EX_SHARED volatile sig_atomic_t ex_handles_stop = 0;
static void ex_install_stop_handler(void);

static void ex_on_signal(int sig) {
    int saved = errno;
    if (sig == SIGWINCH) {
        ex_winch = 1;
    } else if (sig == SIGCONT) {
        ex_continued = 1;
    } else {
        ex_interrupts++;
        ex_interrupts_ever++;
    }
    if (ex_pipe[1] >= 0) {
        ssize_t ignored = write(ex_pipe[1], "x", 1);
        (void)ignored;
    }
    errno = saved;
}

/// Files being written that a signal ending the process must not leave
/// behind: a download cut half-way, the file beside one `--force` was to
/// replace. Killed by Ctrl-C in a script, SIGTERM or SIGHUP, explorer left
/// the partial file (or a hidden `.NAME.XXXXXX`) for every run. Slots are
/// claimed and freed from any thread; the handlers only read them.
#define EX_CLEANUP_SLOTS 16
// Initialised: a weak tentative definition is no storage at all (address 0).
EX_SHARED char ex_cleanup_paths[EX_CLEANUP_SLOTS][PATH_MAX] = {{0}};
EX_SHARED volatile sig_atomic_t ex_cleanup_used[EX_CLEANUP_SLOTS] = {0};

/// Notes `path` for removal should the process be ended by a signal; the slot, or -1 when all are taken.
static inline int ex_cleanup_add(const char *path) {
    if (strlen(path) >= PATH_MAX) return -1;
    for (int i = 0; i < EX_CLEANUP_SLOTS; i++) {
        if (__sync_bool_compare_and_swap(&ex_cleanup_used[i], 0, 2)) {
            strcpy(ex_cleanup_paths[i], path);
            __sync_synchronize();
            ex_cleanup_used[i] = 1;
            return i;
        }
    }
    return -1;
}

/// The file of `slot` is kept, or was removed: nothing to do for it at a signal.
static inline void ex_cleanup_remove(int slot) {
    if (slot >= 0 && slot < EX_CLEANUP_SLOTS) ex_cleanup_used[slot] = 0;
}

/// Removes every noted file (async-signal-safe: unlink only).
static void ex_cleanup_now(void) {
    for (int i = 0; i < EX_CLEANUP_SLOTS; i++) {
        if (ex_cleanup_used[i] == 1) unlink(ex_cleanup_paths[i]);
    }
}

/// SIGINT, SIGTERM, SIGHUP outside the REPL (a script, `-c`, a one-shot
/// request): the noted files removed, then the signal's own end.
static void ex_on_signal_cleaning_up(int sig) {
    ex_cleanup_now();
    raise(sig);
}

/// Installs `ex_on_signal_cleaning_up` for the signals that end a script,
/// each once reset (it ends the process as before); one ignored at the
/// start (`nohup`) stays ignored. The REPL and the servers put their own in place later.
static inline void ex_install_cleanup_handlers(void) {
    int endings[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) {
        struct sigaction current;
        if (sigaction(endings[i], NULL, &current) == 0 && current.sa_handler == SIG_IGN) continue;
        struct sigaction cleaning;
        memset(&cleaning, 0, sizeof cleaning);
        cleaning.sa_handler = ex_on_signal_cleaning_up;
        sigemptyset(&cleaning.sa_mask);
        cleaning.sa_flags = SA_RESETHAND;
        sigaction(endings[i], &cleaning, NULL);
    }
}

/// The terminal's settings before the REPL changed them (libedit's raw mode
/// while a line is edited, echo off at a password prompt).
EX_SHARED struct termios ex_original_termios = {0};  // initialised: a weak tentative definition was no storage at all (address 0)
EX_SHARED volatile sig_atomic_t ex_has_original_termios = 0;

/// SIGTERM, SIGHUP, SIGQUIT: the terminal's settings put back, then the
/// signal's own end (its default action, on return: the handler was reset).
/// Killed at the prompt, the REPL left the terminal without echo or line
/// editing (an ssh session dropped, a tmux pane closed, `timeout`).
/// Only a process in the terminal's foreground group touches it: from the
/// background (`timeout`, `explorer &`) the call stopped the process by
/// SIGTTOU, inside this handler, with the ending signal blocked: it never
/// ended (`timeout 2 explorer` hung until kill -9).
static void ex_on_ending_signal(int sig) {
    ex_cleanup_now();
    if (ex_has_original_termios && tcgetpgrp(0) == getpgrp()) tcsetattr(0, TCSANOW, &ex_original_termios);
    raise(sig);
}

/// Ctrl-Z: the terminal's settings put back, then the stop itself (the
/// default action, raised again: it comes once this returns). A shell that
/// does not restore the terminal for a stopped job (dash) was left raw, or
/// without echo at the password prompt. Back (or not stopped at all: an
/// orphaned process group's stop is discarded), the reader sees
/// `ex_continued`, makes the terminal raw again and installs this anew.
static void ex_on_stop(int sig) {
    int saved = errno;
    if (ex_has_original_termios) tcsetattr(0, TCSANOW, &ex_original_termios);
    struct sigaction stop;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = SIG_DFL;
    sigemptyset(&stop.sa_mask);
    sigaction(sig, &stop, NULL);
    raise(sig);
    ex_continued = 1;
    if (ex_pipe[1] >= 0) {
        ssize_t ignored = write(ex_pipe[1], "x", 1);
        (void)ignored;
    }
    errno = saved;
}

static void ex_install_stop_handler(void) {
    struct sigaction stop;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = ex_on_stop;
    sigemptyset(&stop.sa_mask);
    sigaction(SIGTSTP, &stop, NULL);
}

/// Installs the SIGINT and SIGWINCH handlers (no SA_RESTART, so blocking reads
/// return EINTR), and those that put the terminal back before the process
/// ends or stops. Returns 0 on success.
static inline int ex_install_signal_handlers(void) {
    if (!ex_has_original_termios && tcgetattr(0, &ex_original_termios) == 0) ex_has_original_termios = 1;
    struct sigaction ending;
    memset(&ending, 0, sizeof ending);
    ending.sa_handler = ex_on_ending_signal;
    sigemptyset(&ending.sa_mask);
    ending.sa_flags = SA_RESETHAND;
    int endings[] = {SIGTERM, SIGHUP, SIGQUIT};
    for (int i = 0; i < 3; i++) {
        struct sigaction current;
        // One ignored when the REPL started (`nohup`) stays ignored.
        if (sigaction(endings[i], NULL, &current) == 0 && current.sa_handler == SIG_IGN) continue;
        if (sigaction(endings[i], &ending, NULL) != 0) return -1;
    }
    struct sigaction stopping;
    if (sigaction(SIGTSTP, NULL, &stopping) == 0 && stopping.sa_handler != SIG_IGN) {
        ex_handles_stop = 1;
        ex_install_stop_handler();
    }
    if (ex_pipe[0] < 0) {
        if (pipe(ex_pipe) != 0) return -1;
        for (int i = 0; i < 2; i++) {
            fcntl(ex_pipe[i], F_SETFL, fcntl(ex_pipe[i], F_GETFL) | O_NONBLOCK);
            fcntl(ex_pipe[i], F_SETFD, FD_CLOEXEC);
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ex_on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    if (sigaction(SIGINT, &sa, NULL) != 0) return -1;
    if (sigaction(SIGWINCH, &sa, NULL) != 0) return -1;
    if (sigaction(SIGCONT, &sa, NULL) != 0) return -1;
    return 0;
}

/// Creates the output pipe (non-blocking, so a full pipe never blocks a writer
/// that only wants to wake the editor). Returns 0 on success.
static inline int ex_output_pipe_init(void) {
    if (ex_output_pipe[0] >= 0) return 0;
    if (pipe(ex_output_pipe) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(ex_output_pipe[i], F_SETFL, fcntl(ex_output_pipe[i], F_GETFL) | O_NONBLOCK);
        fcntl(ex_output_pipe[i], F_SETFD, FD_CLOEXEC);
    }
    return 0;
}

/// Sets the function that prints waiting output (Swift cannot assign a C
/// global under strict concurrency).
static inline void ex_set_output_hook(char *(*hook)(void)) {
    ex_output_hook = hook;
}

/// Wakes the read function so it prints waiting output (any thread).
static inline void ex_output_wake(void) {
    if (ex_output_pipe[1] < 0) return;
    ssize_t ignored = write(ex_output_pipe[1], "x", 1);
    (void)ignored;
}

static inline void ex_drain_pipe(void) {
    char buf[64];
    if (ex_pipe[0] < 0) return;
    while (read(ex_pipe[0], buf, sizeof buf) > 0) {}
}

/// Returns how many Ctrl-C presses arrived since the last call, and resets.
static inline int ex_take_interrupts(void) {
    int n = (int)ex_interrupts;
    ex_interrupts = 0;
    if (n > 0) ex_drain_pipe();
    return n;
}

/// Columns the prompt takes on screen: its characters' widths, with colour
/// escape sequences (ESC [ … final byte) left out.
static int ex_visible_width(const char *text) {
    if (!text) return 0;
    mbstate_t state;
    memset(&state, 0, sizeof state);
    int width = 0;
    const char *p = text;
    size_t left = strlen(text);
    while (left > 0) {
        if (p[0] == 0x1b && left > 1 && p[1] == '[') {
            p += 2; left -= 2;
            while (left > 0 && !(*p >= 0x40 && *p <= 0x7e)) { p++; left--; }
            if (left > 0) { p++; left--; }
            continue;
        }
        wchar_t wc;
        size_t n = mbrtowc(&wc, p, left, &state);
        if (n == (size_t)-1 || n == (size_t)-2 || n == 0) { p++; left--; width++; memset(&state, 0, sizeof state); continue; }
        int w = wcwidth(wc);
        width += w > 0 ? w : 0;
        p += n; left -= n;
    }
    return width;
}

/// The row of the cursor below the prompt's first row, when prompt and line
/// wrap over several rows of the terminal.
static int ex_cursor_row(EditLine *el) {
    struct winsize size;
    if (ioctl(1, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return 0;
    int cols = size.ws_col;
    const LineInfoW *line = el_wline(el);
    int width = ex_visible_width(ex_prompt_text);
    if (line) {
        for (const wchar_t *c = line->buffer; c < line->cursor; c++) {
            int w = wcwidth(*c);
            width += w > 0 ? w : 0;
        }
    }
    return width / cols;
}

/// Bytes read ahead after an ESC that were not an arrow key: handed out
/// one by one before anything else is read.
EX_SHARED unsigned char ex_pending[16] = {0};
EX_SHARED int ex_pending_count = 0;
EX_SHARED int ex_pending_next = 0;

/// One more byte of an escape sequence, if it comes within a moment (a
/// terminal sends a key's sequence at once; a lone ESC is followed by nothing).
static int ex_read_soon(unsigned char *byte) {
    struct pollfd fd = {0, POLLIN, 0};
    if (poll(&fd, 1, 50) <= 0 || !(fd.revents & POLLIN)) return 0;
    return read(0, byte, 1) == 1;
}

/// Control keys for what has no emacs control key of its own: bound in
/// `ex_el_init` to word moves and delete, and what Ctrl-Left, Ctrl-Right,
/// Delete, Alt-b and Alt-f are read as.
#define EX_KEY_PREV_WORD 0x1d   /* ^] */
#define EX_KEY_NEXT_WORD 0x1e   /* ^^ */
#define EX_KEY_DELETE 0x1f      /* ^_ */

/// After an ESC: the arrow, Home and End keys as the emacs keys that do the
/// same (^P ^N ^F ^B ^A ^E), Ctrl-Left, Ctrl-Right, Delete, Alt-b and Alt-f
/// as the control keys bound to theirs; any other sequence kept to be read
/// as it came. libedit's Ctrl-R search ends on an ESC and then typed the
/// rest of the sequence into the line (`[Cws status`, `;5D`, `3~`, saved to
/// history); a control key ends the search and then does its work, as in
/// readline.
static wchar_t ex_after_escape(void) {
    unsigned char seq[8];
    int n = 0;
    if (!ex_read_soon(&seq[n])) return 0x1b;
    n++;
    if (seq[0] == 'b') return EX_KEY_PREV_WORD;
    if (seq[0] == 'f') return EX_KEY_NEXT_WORD;
    if (seq[0] == '[' || seq[0] == 'O') {
        while (n < (int)sizeof seq && ex_read_soon(&seq[n])) {
            n++;
            if (seq[n - 1] >= 0x40 && seq[n - 1] <= 0x7e) break;
        }
        char key[9] = {0};
        memcpy(key, seq + 1, n - 1);
        const struct { const char *key; wchar_t as; } keys[] = {
            {"A", 0x10}, {"B", 0x0e}, {"C", 0x06}, {"D", 0x02},
            {"H", 0x01}, {"F", 0x05}, {"1~", 0x01}, {"7~", 0x01}, {"4~", 0x05}, {"8~", 0x05},
            /* Ctrl-Left and Ctrl-Right: xterm's, screen's and PuTTY's; rxvt's are ESC O d and ESC O c. */
            {"1;5D", EX_KEY_PREV_WORD}, {"1;5C", EX_KEY_NEXT_WORD}, {"5D", EX_KEY_PREV_WORD}, {"5C", EX_KEY_NEXT_WORD},
            {"d", EX_KEY_PREV_WORD}, {"c", EX_KEY_NEXT_WORD},
            {"3~", EX_KEY_DELETE},
        };
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            if (strcmp(key, keys[i].key) == 0) return keys[i].as;
        }
    }
    memcpy(ex_pending, seq, n);
    ex_pending_count = n;
    ex_pending_next = 0;
    return 0x1b;
}

/// libedit read function: reads one character from fd 0, but wakes up on
/// Ctrl-C (returning EX_INTERRUPT_CHAR) and on window resizes.
static int ex_getc(EditLine *el, wchar_t *out) {
    static mbstate_t state;
    if (ex_pending_next < ex_pending_count) {
        *out = (wchar_t)ex_pending[ex_pending_next++];
        return 1;
    }
    for (;;) {
        if (ex_interrupts > 0) {
            ex_take_interrupts();
            *out = (wchar_t)EX_INTERRUPT_CHAR;
            return 1;
        }
        if (ex_winch) {
            ex_winch = 0;
            ex_drain_pipe();
            el_resize(el);
        }
        if (ex_continued) {
            /* Back from Ctrl-Z: the shell left the terminal cooked (keys echoed
               twice, arrows as ^[[D, TAB inert) and the line unshown. Raw mode
               again, and prompt and line drawn where the cursor is. */
            ex_continued = 0;
            ex_drain_pipe();
            if (ex_handles_stop) ex_install_stop_handler();
            el_set(el, EL_PREP_TERM, 0);
            el_set(el, EL_PREP_TERM, 1);
            const char *term = getenv("TERM");
            fputs(!term || !*term || strcmp(term, "dumb") == 0 ? "\r" : "\r\x1b[J", stdout);
            fflush(stdout);
            el_set(el, EL_REFRESH);
        }
        struct pollfd fds[3] = {{0, POLLIN, 0}, {ex_pipe[0], POLLIN, 0}, {ex_output_pipe[0], POLLIN, 0}};
        int n = poll(fds, 3, -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (fds[2].revents & POLLIN) {
            /* Output arrived while a line is being edited: clear the line,
               print the output, and have libedit draw prompt and line again. */
            char buf[64];
            while (read(ex_output_pipe[0], buf, sizeof buf) > 0) {}
            /* Taken after the pipe is drained: text posted in between is in
               it, and its wake byte then finds nothing. Nothing waiting, no
               redraw: an empty one drew a second prompt that a script reading
               the terminal took for the end of its next command's output. */
            char *text = ex_output_hook ? ex_output_hook() : NULL;
            if (text) {
                /* Back to the prompt's first row and clear to the end of the
                   screen: a line that wraps left its first rows behind. */
                const char *term = getenv("TERM");
                if (!term || !*term || strcmp(term, "dumb") == 0) {
                    /* A dumb terminal (an editor's shell buffer) prints escape
                       codes as text: the output goes on a line of its own. */
                    fputs("\n", stdout);
                } else {
                    int up = ex_cursor_row(el);
                    if (up > 0) fprintf(stdout, "\x1b[%dA", up);
                    fputs("\r\x1b[J", stdout);
                }
                fputs(text, stdout);
                free(text);
                fflush(stdout);
                el_set(el, EL_REFRESH);
            }
            continue;
        }
        if (fds[1].revents & POLLIN) {
            ex_drain_pipe();
            continue;
        }
        if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        char byte;
        ssize_t r = read(0, &byte, 1);
        if (r < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return -1;
        }
        if (r == 0) return 0;
        wchar_t wc;
        size_t len = mbrtowc(&wc, &byte, 1, &state);
        if (len == (size_t)-2) continue;            /* incomplete multibyte sequence */
        if (len == (size_t)-1) {                    /* invalid: pass the byte through */
            memset(&state, 0, sizeof state);
            wc = (wchar_t)(unsigned char)byte;
        }
        *out = wc == 0x1b ? ex_after_escape() : wc;
        return 1;
    }
}

static char *ex_prompt(EditLine *el) {
    (void)el;
    return ex_prompt_text ? ex_prompt_text : (char *)"> ";
}

/// Replaces the prompt text (copied).
static inline void ex_set_prompt(const char *text) {
    char *copy = strdup(text);
    char *old = ex_prompt_text;
    ex_prompt_text = copy;
    free(old);
}

/// Reads characters as UTF-8 whatever the locale says: under LC_ALL=C
/// (common in containers and CI) libedit took each byte of "café" for a
/// character of its own and the line went out corrupted. The user's
/// LC_CTYPE stays when it is already UTF-8.
static inline void ex_use_utf8_ctype(void) {
    setlocale(LC_CTYPE, "");
    const char *codeset = nl_langinfo(CODESET);
    if (codeset && (strcasecmp(codeset, "UTF-8") == 0 || strcasecmp(codeset, "utf8") == 0)) return;
    const char *candidates[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8"};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        if (setlocale(LC_CTYPE, candidates[i])) return;
    }
}

/// Reads the user's settings as libedit's own `el_source(el, NULL)` finds
/// them ($EDITRC, else ~/.editrc), when they are a regular file of 1 MiB at
/// most: a link to /dev/zero grew without end before the first prompt, and
/// a FIFO waited for ever. Anything else is said once and left unread.
static inline void ex_el_source_settings(EditLine *el) {
    char path[PATH_MAX];
    const char *given = getenv("EDITRC");
    const char *home = getenv("HOME");
    if (given && *given) {
        snprintf(path, sizeof path, "%s", given);
    } else if (home && *home) {
        snprintf(path, sizeof path, "%s/.editrc", home);
    } else {
        return;
    }
    struct stat status;
    if (stat(path, &status) != 0) return;
    if (!S_ISREG(status.st_mode) || status.st_size > (1 << 20)) {
        fprintf(stderr, "warning: %s is not read: it is %s\n", path,
                S_ISREG(status.st_mode) ? "larger than 1 MiB" : "not a regular file");
        return;
    }
    el_source(el, path);
}

/// Creates an editor on the process's stdin/stdout/stderr with emacs keys,
/// our read function and prompt, and the user's ~/.editrc.
static inline EditLine *ex_el_init(const char *program) {
    ex_use_utf8_ctype();
    EditLine *el = el_init(program, stdin, stdout, stderr);
    if (!el) return NULL;
    el_set(el, EL_EDITOR, "emacs");
    el_set(el, EL_PROMPT, ex_prompt);
    el_set(el, EL_GETCFN, ex_getc);
    // Ctrl-Left and Ctrl-Right (xterm's, rxvt's, and screen's or PuTTY's
    // sequences), Alt-b and Alt-f move by word, Delete deletes: `ex_getc`
    // reads them as these control keys (unbound, they typed ";5D" or "5D"
    // into the line; as sequences, they typed it after a Ctrl-R search).
    el_set(el, EL_BIND, "^]", "ed-prev-word", NULL);
    el_set(el, EL_BIND, "^^", "em-next-word", NULL);
    el_set(el, EL_BIND, "^_", "ed-delete-next-char", NULL);
    ex_el_source_settings(el);
    return el;
}

typedef unsigned char (*ex_el_fn)(EditLine *, int);

/// Adds a named editor function and binds it to a key sequence such as "^I";
/// with `everyKeymap`, in vi's command keymap too (`bind -v` in ~/.editrc:
/// Ctrl-C after Esc did nothing, and the next line was typed into the old one).
static inline void ex_el_bind(EditLine *el, const char *name, const char *help, ex_el_fn fn, const char *key, int everyKeymap) {
    el_set(el, EL_ADDFN, name, help, fn);
    el_set(el, EL_BIND, key, name, NULL);
    if (everyKeymap) el_set(el, EL_BIND, "-a", key, name, NULL);
}

static inline void ex_el_set_history(EditLine *el, History *h) {
    el_set(el, EL_HIST, history, h);
}

static inline History *ex_history_init(int size) {
    History *h = history_init();
    if (!h) return NULL;
    HistEvent ev;
    history(h, &ev, H_SETSIZE, size);
    history(h, &ev, H_SETUNIQUE, 1);
    return h;
}

static inline int ex_history_enter(History *h, const char *line) {
    HistEvent ev;
    return history(h, &ev, H_ENTER, line);
}

static inline int ex_history_load(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_LOAD, path);
}

static inline int ex_history_save(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_SAVE, path);
}

static inline void ex_history_clear(History *h) {
    HistEvent ev;
    history(h, &ev, H_CLEAR);
}

/// Opens and locks the history file at `path` (made if missing, a symbolic
/// link followed: the user's own, in the user's own folder); its size in
/// `locked`. -1 with errno set when it cannot be opened or locked.
static inline int ex_history_lock(const char *path, char real[PATH_MAX], struct stat *locked) {
    if (realpath(path, real)) path = real;
    else { strncpy(real, path, PATH_MAX - 1); real[PATH_MAX - 1] = 0; }
    struct stat named;
    for (;;) {
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0) return -1;
        if (flock(fd, LOCK_EX) != 0) { int saved = errno; close(fd); errno = saved; return -1; }
        // Another session renamed its file over this one while this waited: the lock must be the new file's.
        if (fstat(fd, locked) == 0 && stat(path, &named) == 0 && locked->st_ino == named.st_ino && locked->st_dev == named.st_dev) return fd;
        close(fd);
    }
}

/// Writes `merged` to a new file beside `path` and renames that over it, so
/// a write that fails (a full disk, a file size limit) leaves the file as it
/// was (it was cut, then half written, losing entries). 0, or -1 with errno set.
static inline int ex_history_replace_file(History *merged, const char *path) {
    HistEvent ev;
    char beside[PATH_MAX + 8];
    int status = -1, problem = 0;
    if (snprintf(beside, sizeof beside, "%s.XXXXXX", path) < (int)sizeof beside) {
        int out = mkstemp(beside);
        FILE *file = out < 0 ? NULL : fdopen(out, "w");
        if (out >= 0 && !file) close(out);
        if (file) {
            errno = 0;
            int written = history(merged, &ev, H_SAVE_FP, file) >= 0;
            written = fflush(file) == 0 && !ferror(file) && fsync(out) == 0 && written;
            if (!written) problem = errno ? errno : EIO;
            if (fclose(file) != 0 && written) { written = 0; problem = errno; }
            if (written && rename(beside, path) == 0) status = 0;
            else {
                if (!problem) problem = errno;
                unlink(beside);
            }
        } else problem = errno;
    } else problem = ENAMETOOLONG;
    if (status != 0) errno = problem;
    return status;
}

/// Adds `line` to the history file at `path` without losing what other
/// sessions wrote there: under an exclusive lock on the file, reads it,
/// adds the line, writes the whole beside it and renames that over it
/// (`ex_history_replace_file`); then `h` becomes the file's history, so
/// this session recalls the others' lines too. -1 when the file cannot be
/// opened, locked or written, with errno set, and `h` untouched; -2 when
/// it holds something libedit does not read as a history (no
/// `_HiStOrY_V2_` first line: edited by hand, another tool's, binary),
/// which is left as it is.
static inline int ex_history_append(History *h, int size, const char *path, const char *line) {
    char real[PATH_MAX];
    struct stat locked;
    int fd = ex_history_lock(path, real, &locked);
    if (fd < 0) return -1;
    path = real;
    History *merged = ex_history_init(size);
    if (!merged) { close(fd); errno = ENOMEM; return -1; }
    HistEvent ev;
    if (history(merged, &ev, H_LOAD, path) < 0 && locked.st_size > 0) {
        history_end(merged);
        close(fd);
        return -2;
    }
    history(merged, &ev, H_ENTER, line);
    int status = ex_history_replace_file(merged, path);
    int problem = errno;
    history_end(merged);
    if (status == 0) {
        ex_history_clear(h);
        ex_history_load(h, path);
    } else if (locked.st_size == 0) {
        // The empty file this open made holds nothing: not left behind as "the file left as it was".
        unlink(path);
    }
    close(fd);
    if (status != 0) errno = problem;
    return status;
}

/// `text` with each `old` in it as `new`, in memory the caller frees; NULL
/// when it holds none (or memory runs out).
static inline char *ex_replacing(const char *text, const char *old, const char *new) {
    size_t oldLength = strlen(old), newLength = strlen(new), count = 0;
    if (oldLength == 0) return NULL;
    for (const char *at = strstr(text, old); at; at = strstr(at + oldLength, old)) count++;
    if (count == 0) return NULL;
    char *out = malloc(strlen(text) + count * newLength + 1), *to = out;
    if (!out) return NULL;
    for (const char *from = text, *at; ; from = at + oldLength) {
        at = strstr(from, old);
        size_t kept = at ? (size_t)(at - from) : strlen(from);
        memcpy(to, from, kept);
        to += kept;
        if (!at) break;
        memcpy(to, new, newLength);
        to += newLength;
    }
    *to = 0;
    return out;
}

/// A copy of `from`'s lines, oldest first, each `old` in them as `new`;
/// `changed` says whether any held it. NULL when memory runs out.
static inline History *ex_history_replacing(History *from, int size, const char *old, const char *new, int *changed) {
    History *copy = ex_history_init(size);
    if (!copy) return NULL;
    HistEvent ev, added;
    *changed = 0;
    if (history(from, &ev, H_LAST) < 0) return copy;
    do {
        char *replaced = ex_replacing(ev.str, old, new);
        if (replaced) *changed = 1;
        history(copy, &added, H_ENTER, replaced ? replaced : ev.str);
        free(replaced);
    } while (history(from, &ev, H_PREV) >= 0);
    return copy;
}

/// Rewrites each `old` in the history as `new` (a value the session learned
/// is a secret after the line that typed it in clear was kept): in the file
/// at `path` (NULL: none), under its lock and written as `ex_history_append`
/// writes it, and in `h`. 0 when done (or nothing held it); -1 with errno
/// set when the file cannot be read or written, `h` rewritten all the same.
static inline int ex_history_scrub(History *h, int size, const char *path, const char *old, const char *new) {
    int changed = 0, status = 0;
    if (path) {
        char real[PATH_MAX];
        struct stat locked;
        int fd = ex_history_lock(path, real, &locked);
        if (fd < 0) status = -1;
        else {
            History *merged = ex_history_init(size);
            HistEvent ev;
            if (!merged) { status = -1; errno = ENOMEM; }
            else if (history(merged, &ev, H_LOAD, real) < 0 && locked.st_size > 0) { status = -1; errno = EINVAL; }
            else {
                History *scrubbed = ex_history_replacing(merged, size, old, new, &changed);
                if (!scrubbed) { status = -1; errno = ENOMEM; }
                else {
                    if (changed) status = ex_history_replace_file(scrubbed, real);
                    history_end(scrubbed);
                }
            }
            int problem = errno;
            if (merged) history_end(merged);
            if (locked.st_size == 0 && status == 0 && !changed) unlink(real);
            close(fd);
            errno = problem;
        }
    }
    History *scrubbed = ex_history_replacing(h, size, old, new, &changed);
    if (scrubbed) {
        if (changed) {
            HistEvent ev;
            ex_history_clear(h);
            if (history(scrubbed, &ev, H_LAST) >= 0) {
                do { ex_history_enter(h, ev.str); } while (history(scrubbed, &ev, H_PREV) >= 0);
            }
        }
        history_end(scrubbed);
    }
    return status;
}

/// The history's lines, oldest first, each given to `each` with `context`.
static inline void ex_history_each(History *h, void (*each)(const char *, void *), void *context) {
    HistEvent ev;
    if (history(h, &ev, H_LAST) < 0) return;
    do { each(ev.str, context); } while (history(h, &ev, H_PREV) >= 0);
}

/// Number of columns of the terminal, or 80.
static inline int ex_el_columns(EditLine *el) {
    int cols = 0;
    if (el_get(el, EL_GETTC, "co", &cols) != 0 || cols <= 0) cols = 80;
    return cols;
}

/// Reads one line from fd 0 with echo off (for passwords). Returns the length,
/// or -1 when cancelled by Ctrl-C or end of input.
static inline int ex_read_secret(const char *prompt, char *buf, int size) {
    struct termios old, quiet;
    int tty = tcgetattr(0, &old) == 0;
    // Ctrl-C cancels the prompt (read returns EINTR) instead of killing the
    // process with echo still off: asked before the REPL installs its
    // handlers (a profile's secret at start-up), nothing else catches it.
    struct sigaction catching, previous;
    memset(&catching, 0, sizeof catching);
    catching.sa_handler = ex_on_signal;
    sigemptyset(&catching.sa_mask);
    int caught = sigaction(SIGINT, &catching, &previous) == 0;
    // Back from Ctrl-Z the shell has turned echo on again: the password showed as it was typed.
    struct sigaction continuing;
    int caughtCont = sigaction(SIGCONT, &catching, &continuing) == 0;
    fputs(prompt, stdout);
    fflush(stdout);
    if (tty) {
        quiet = old;
        quiet.c_lflag &= ~(tcflag_t)ECHO;
        quiet.c_lflag |= ECHONL;
        tcsetattr(0, TCSANOW, &quiet);
    }
    int len = 0, result = 0;
    int before = (int)ex_interrupts_ever;
    for (;;) {
        // The signal may go to another thread (a replay asks from a worker while
        // the main thread waits): the read is not interrupted, so stdin is
        // polled and the count of Ctrl-C presses looked at in between.
        if ((int)ex_interrupts_ever != before) { result = -2; break; }
        if (ex_continued) {
            ex_continued = 0;
            ex_drain_pipe();
            if (ex_handles_stop) ex_install_stop_handler();
            if (tty) tcsetattr(0, TCSANOW, &quiet);
            fputs(prompt, stdout);
            fflush(stdout);
        }
        struct pollfd waiting = { .fd = 0, .events = POLLIN, .revents = 0 };
        int ready = poll(&waiting, 1, 100);
        if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
        char c;
        ssize_t r = read(0, &c, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { result = len > 0 ? len : -1; break; }
        if (c == '\n' || c == '\r') { result = len; break; }
        if (len < size - 1) buf[len++] = c;
    }
    buf[len < size ? len : size - 1] = '\0';
    if (tty) tcsetattr(0, TCSANOW, &old);
    if (caught) sigaction(SIGINT, &previous, NULL);
    if (caughtCont) sigaction(SIGCONT, &continuing, NULL);
    if (result < 0) { ex_take_interrupts(); fputs("\n", stdout); fflush(stdout); }
    return result;
}

/// Flushes C stdio's stdout (before writing to stderr another way).
static inline void ex_flush_stdout(void) {
    fflush(stdout);
}

/// Writes text to stdout through C stdio (which libedit also uses),
/// flushing: 0, or the errno of a write that failed (a full disk, a reader
/// that went away, a closed descriptor).
static inline int ex_write_stdout(const char *text) {
    errno = 0;
    int failed = fputs(text, stdout) == EOF;
    failed |= fflush(stdout) == EOF;
    if (!failed) return 0;
    int error = errno ? errno : EIO;
    clearerr(stdout);
    return error;
}

/// Writes `text` (a TAB's candidates) below the whole line, then has libedit
/// draw prompt and line again under it. CC_REDISPLAY first moved up the rows
/// it thought the cursor was below the prompt's first, onto the text just
/// written: with a line wrapped at a narrow window, the last candidate was
/// drawn over. EL_REFRESH draws from where the cursor is.
static inline int ex_write_below_line(EditLine *el, const char *text) {
    struct winsize size;
    int cols = ioctl(1, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? size.ws_col : 0;
    const LineInfoW *line = el_wline(el);
    if (cols > 0 && line) {
        int width = ex_visible_width(ex_prompt_text);
        for (const wchar_t *c = line->buffer; c < line->lastchar; c++) {
            int w = wcwidth(*c);
            width += w > 0 ? w : 0;
        }
        int below = width / cols - ex_cursor_row(el);
        if (below > 0) fprintf(stdout, "\x1b[%dB", below);
    }
    int failed = ex_write_stdout(text);
    el_set(el, EL_REFRESH);
    return failed;
}

/// Writes bytes to stdout through C stdio, NUL bytes and all, flushing: 0,
/// or the errno of a write that failed.
static inline int ex_write_stdout_bytes(const unsigned char *bytes, size_t count) {
    errno = 0;
    int failed = fwrite(bytes, 1, count, stdout) != count;
    failed |= fflush(stdout) == EOF;
    if (!failed) return 0;
    int error = errno ? errno : EIO;
    clearerr(stdout);
    return error;
}

/// Writes bytes to stderr, unbuffered: 0, or the errno of a write that
/// failed (Foundation's FileHandle stopped the process on one).
static inline int ex_write_stderr(const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(2, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written < 0) return errno;
        if (written == 0) return EIO;
        bytes += written;
        count -= (size_t)written;
    }
    return 0;
}

/// Whether descriptor `fd` is open.
static inline int ex_is_open(int fd) {
    return fcntl(fd, F_GETFD) != -1 || errno != EBADF;
}

#endif
