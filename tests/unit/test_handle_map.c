/* The layer's handle map: put, get, take, growth past many entries, reuse after deletions, and
 * concurrent use from several threads (run under ThreadSanitizer in the TSan configuration). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "handle_map.h"

static void put_get_take(void **state)
{
    (void)state;
    struct handle_map m;
    handle_map_init(&m);
    for (uintptr_t h = 1; h <= 20000; ++h)
        assert_true(handle_map_put(&m, h * 0x1000, (void *)h));
    for (uintptr_t h = 1; h <= 20000; ++h)
        assert_ptr_equal(handle_map_get(&m, h * 0x1000), (void *)h);
    assert_null(handle_map_get(&m, 0x123));
    for (uintptr_t h = 1; h <= 20000; h += 2)
        assert_ptr_equal(handle_map_take(&m, h * 0x1000), (void *)h);
    for (uintptr_t h = 1; h <= 20000; ++h)
        assert_ptr_equal(handle_map_get(&m, h * 0x1000), (h % 2) ? NULL : (void *)h);
    /* deleted slots are reused without losing the live entries */
    for (uintptr_t h = 1; h <= 20000; h += 2)
        assert_true(handle_map_put(&m, h * 0x1000, (void *)(h + 1)));
    for (uintptr_t h = 1; h <= 20000; ++h)
        assert_ptr_equal(handle_map_get(&m, h * 0x1000), (void *)(h % 2 ? h + 1 : h));
    assert_false(handle_map_put(&m, 0, (void *)1)); /* VK_NULL_HANDLE is never a key */
    handle_map_destroy(&m, NULL);
}

static struct handle_map shared;

static void *worker(void *user)
{
    uintptr_t base = (uintptr_t)user << 32;
    for (uintptr_t i = 1; i <= 5000; ++i) {
        handle_map_put(&shared, base | i, (void *)i);
        if (handle_map_get(&shared, base | i) != (void *)i)
            return (void *)1;
        if (i % 3 == 0 && handle_map_take(&shared, base | i) != (void *)i)
            return (void *)1;
    }
    return NULL;
}

static void concurrent_threads(void **state)
{
    (void)state;
    handle_map_init(&shared);
    pthread_t threads[4];
    for (uintptr_t t = 0; t < 4; ++t)
        pthread_create(&threads[t], NULL, worker, (void *)(t + 1));
    for (int t = 0; t < 4; ++t) {
        void *result;
        pthread_join(threads[t], &result);
        assert_null(result);
    }
    handle_map_destroy(&shared, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(put_get_take),
        cmocka_unit_test(concurrent_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
