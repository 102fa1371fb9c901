// printf from a kernel: every thread says who it is.
__global__ void hello(int tag)
{
    printf("block %d thread %d tag %d\n", blockIdx.x, threadIdx.x, tag);
}
