/* Descriptor set layouts and sets: reference counting, and a set's layout bindings. */
#include "state_descriptors.h"

#include <stdlib.h>

#include "state_device.h"

void set_layout_release(struct set_layout_state *s)
{
    if (s != NULL && __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        free(s->bindings);
        free(s);
    }
}

void set_state_release(struct set_state *s)
{
    if (s != NULL && __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        set_layout_release(s->layout);
        free(s->descriptors);
        free(s->accesses);
        free(s);
    }
}

const struct set_layout_binding *set_layout_binding_of(const struct set_state *set, uint32_t binding)
{
    for (uint32_t k = 0; set && k < set->layout->binding_count; ++k)
        if (set->layout->bindings[k].binding == binding)
            return &set->layout->bindings[k];
    return NULL;
}
