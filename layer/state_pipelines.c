/* Pipeline layouts and pipelines: reference counting. */
#include "state_pipelines.h"

#include <stdlib.h>

#include "state_descriptors.h"
#include "state_device.h"

void pipeline_layout_release(struct pipeline_layout_state *s)
{
    if (s != NULL && __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        for (uint32_t i = 0; i < s->set_count; ++i)
            set_layout_release(s->sets[i]);
        free(s);
    }
}

void pipeline_release(struct pipeline_state *s)
{
    if (s != NULL && __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        pipeline_layout_release(s->layout);
        reflect_free(&s->shader);
        free(s);
    }
}
