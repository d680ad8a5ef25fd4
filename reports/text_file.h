/* The text files the report tool reads whole: requirements, expectations, Mesa CI's lists, machine
 * configurations. */
#ifndef PREFLIGHT_REPORTS_TEXT_FILE_H
#define PREFLIGHT_REPORTS_TEXT_FILE_H

/* The file's text (malloc'd; "-" reads standard input); NULL after saying why on standard error,
 * e.g. that it holds a NUL byte and so is not `what` ("a requirements file"). */
char *text_file_read(const char *path, const char *what);

#endif
