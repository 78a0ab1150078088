/* Ends a template instance started by group_g1.h or group_g2.h. */
#undef FE
#undef FE_
#undef FE_ONE
#undef AFF
#undef JAC
#undef GP
#undef GROUP_ID
#undef GROUP_BATCH_KERNEL
#undef GROUP_KERNEL_ADD
#undef GROUP_KERNEL_SCRATCH
#undef GROUP_KERNEL_SKIP
