#include "db_pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

struct db_pool {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    struct db **free_list;
    size_t free_count, size;
    struct db **all;
};

struct db_pool *db_pool_open(const char *target, size_t size, char *error, size_t error_size)
{
    struct db_pool *pool = calloc(1, sizeof(*pool));
    if (pool == NULL)
        return NULL;
    pool->free_list = calloc(size, sizeof(*pool->free_list));
    pool->all = calloc(size, sizeof(*pool->all));
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->freed, NULL);
    for (size_t i = 0; pool->all && pool->free_list && i < size; ++i) {
        pool->all[i] = db_open(target, error, error_size);
        if (pool->all[i] == NULL) {
            db_pool_close(pool);
            return NULL;
        }
        pool->free_list[pool->free_count++] = pool->all[i];
        pool->size = i + 1;
    }
    return pool;
}

void db_pool_close(struct db_pool *pool)
{
    if (pool == NULL)
        return;
    for (size_t i = 0; i < pool->size; ++i)
        db_close(pool->all[i]);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->freed);
    free(pool->free_list);
    free(pool->all);
    free(pool);
}

struct db *db_pool_take(struct db_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    while (pool->free_count == 0)
        pthread_cond_wait(&pool->freed, &pool->lock);
    struct db *db = pool->free_list[--pool->free_count];
    pthread_mutex_unlock(&pool->lock);
    return db;
}

void db_pool_give(struct db_pool *pool, struct db *db)
{
    pthread_mutex_lock(&pool->lock);
    pool->free_list[pool->free_count++] = db;
    pthread_cond_signal(&pool->freed);
    pthread_mutex_unlock(&pool->lock);
}
