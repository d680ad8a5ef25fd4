#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool output_open(struct output_file *o, const char *path, char *error, size_t size)
{
    memset(o, 0, sizeof(*o));
    if (path == NULL || strcmp(path, "-") == 0) {
        o->file = stdout;
        return true;
    }
    if (strlen(path) >= sizeof(o->path) - 16) {
        snprintf(error, size, "cannot write %.200s...: the path is too long", path);
        return false;
    }
    snprintf(o->path, sizeof(o->path), "%s", path);
    struct stat st;
    bool exists = stat(path, &st) == 0; /* through a symlink: the target */
    struct stat link;
    if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode)) {
        char resolved[PATH_MAX];
        if (exists && realpath(path, resolved) != NULL && strlen(resolved) < sizeof(o->path) - 16)
            snprintf(o->path, sizeof(o->path), "%s", resolved); /* replace the target, keep the link */
        else
            exists = false; /* a dangling link: writing through it creates its target */
    }
    if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISBLK(st.st_mode) ||
                   (S_ISLNK(link.st_mode) && !S_ISREG(st.st_mode)))) {
        o->file = fopen(path, "w"); /* not a file to replace: write into it */
        if (o->file == NULL) {
            snprintf(error, size, "cannot write %s: %s", path, strerror(errno));
            return false;
        }
        return true;
    }
    if (exists && S_ISDIR(st.st_mode)) {
        snprintf(error, size, "cannot write %s: it is a directory", path);
        return false;
    }
    if (S_ISLNK(link.st_mode) && !exists) {
        o->file = fopen(path, "w");
        if (o->file == NULL) {
            snprintf(error, size, "cannot write %s: %s", path, strerror(errno));
            return false;
        }
        return true;
    }
    snprintf(o->temporary, sizeof(o->temporary), "%s.partial.XXXXXX", o->path);
    int fd = mkstemp(o->temporary);
    if (fd < 0) {
        snprintf(error, size, "cannot write %s: %s", o->path, strerror(errno));
        return false;
    }
    /* the permissions a new file would get, or the replaced file's */
    mode_t mode;
    if (exists) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0 || (o->file = fdopen(fd, "w")) == NULL) {
        snprintf(error, size, "cannot write %s: %s", o->temporary, strerror(errno));
        close(fd);
        unlink(o->temporary);
        return false;
    }
    return true;
}

bool output_commit(struct output_file *o, char *error, size_t size)
{
    if (o->file == stdout) {
        bool ok = fflush(stdout) == 0 && !ferror(stdout);
        if (!ok)
            snprintf(error, size, "cannot write standard output: %s", strerror(errno));
        return ok;
    }
    bool ok = fflush(o->file) == 0 && !ferror(o->file);
    if (ok && o->temporary[0] != '\0')
        ok = fsync(fileno(o->file)) == 0;
    ok = fclose(o->file) == 0 && ok;
    o->file = NULL;
    if (!ok || (o->temporary[0] != '\0' && rename(o->temporary, o->path) != 0)) {
        snprintf(error, size, "cannot write %s: %s", o->path, strerror(errno));
        if (o->temporary[0] != '\0')
            unlink(o->temporary);
        return false;
    }
    return true;
}

void output_abandon(struct output_file *o)
{
    if (o->file != NULL && o->file != stdout)
        fclose(o->file);
    o->file = NULL;
    if (o->temporary[0] != '\0')
        unlink(o->temporary);
}
