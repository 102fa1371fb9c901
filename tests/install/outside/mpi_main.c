/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* The outside project's MPI program: links libaccel_mpi (accel::mpi, or
 * pkg-config accel-mpi) and asks it what MPI it was built with, which works
 * before MPI_Init and without mpirun. Exit 0 when the answer names an MPI
 * standard version and a library. */
#include <accel/mpi.h>
#include <stdio.h>

int main(void)
{
    accel_mpi_info info = {.struct_size = sizeof info};
    accel_status st = accel_mpi_info_get(&info);
    if (st != ACCEL_SUCCESS) {
        fprintf(stderr, "outside_mpi: %s: %s\n", accel_status_name(st), accel_last_error());
        return 1;
    }
    if (info.mpi_version < 1 || info.mpi_library[0] == '\0') {
        fprintf(stderr, "outside_mpi: no MPI version (%d) or library (\"%s\")\n", info.mpi_version,
                info.mpi_library);
        return 1;
    }
    printf("outside_mpi: accel %s, libaccel_mpi built with MPI %d.%d (%s)\n", accel_version(),
           info.mpi_version, info.mpi_subversion, info.mpi_library);
    return 0;
}
