/* The names an item may be asked for: the qualified names vk.xml defines (features and limits as
 * Struct.member, extensions, formats), a bare member name as an alias where exactly one struct
 * has that member, and, for a name nobody knows, the closest names that exist. */
#ifndef PREFLIGHT_DASHBOARD_ITEM_NAMES_H
#define PREFLIGHT_DASHBOARD_ITEM_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#define ITEM_NAME_MAX 256

/* Whether vk.xml defines `name` for `kind` (feature, limit, extension, format); false for the
 * kinds it does not know (smoke capabilities and tests). */
bool item_name_defined(const char *kind, const char *name);

/* The structs that have member `member` for a feature or limit: up to `max` "Struct.member" names
 * written into `out`; returns how many there are in all (1: the bare name is an alias). */
size_t item_name_qualify(const char *kind, const char *member, char (*out)[ITEM_NAME_MAX], size_t max);

/* Up to `max` names closest to `name` (edit distance, case ignored, also to a name's member
 * part) among vk.xml's names of `kind` and `extra` (names the database knows), best first;
 * only names close enough to be a misspelling. Returns how many were written. */
size_t item_names_closest(const char *kind, const char *name, const char *const *extra, size_t extra_count,
                          char (*out)[ITEM_NAME_MAX], size_t max);

#endif
