#include "checks.h"

#include <pthread.h>
#include <string.h>

#include "fnv1a.h"

static const struct check_info catalogue[CHECK_COUNT] = {
#define CHECK_ROW(id, name, severity, summary) [CHECK_##id] = {name, severity, summary, 0},
    PREFLIGHT_CHECKS(CHECK_ROW)
#undef CHECK_ROW
};

/* FNV-1a of the name: the same number in every build, every run, every machine. */
static int32_t name_hash(const char *name)
{
    return (int32_t)fnv1a32_string(FNV1A32_START, name);
}

static struct check_info with_ids[CHECK_COUNT];
static pthread_once_t with_ids_once = PTHREAD_ONCE_INIT;

static void fill_with_ids(void)
{
    for (int i = 0; i < CHECK_COUNT; ++i) {
        with_ids[i] = catalogue[i];
        with_ids[i].message_id = name_hash(catalogue[i].name);
    }
}

/* Filled once, by whichever thread asks first: pthread_once also makes the table visible to the
 * others, which an unordered flag would not on a weakly ordered CPU (arm64). */
const struct check_info *check_info(enum check_id id)
{
    pthread_once(&with_ids_once, fill_with_ids);
    return (unsigned)id < CHECK_COUNT ? &with_ids[id] : NULL;
}

enum check_id check_by_name(const char *name)
{
    for (int i = 0; i < CHECK_COUNT; ++i)
        if (strcmp(catalogue[i].name, name) == 0)
            return (enum check_id)i;
    return CHECK_COUNT;
}
