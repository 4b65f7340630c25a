// collc-calibrate: measures this machine's alpha, beta and gamma (design.md
// 5, seed 000's method) and writes a model file that `collc cost`,
// `collc explain` and the optimizer read. Run on two ranks:
//
//   mpirun -np 2 collc-calibrate -o machine.model [--quick]
//
// (or `collc calibrate -o machine.model`, which starts it). alpha is the
// median one-way time of a zero-byte ping-pong; beta the least-squares
// slope of the one-way time over large messages (64 KiB .. 4 MiB); gamma
// the median time per byte of summing doubles. Medians over repetitions,
// after warm-up; the fit's residual is written as a comment.

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One-way time (us) of a ping-pong of `bytes` between ranks 0 and 1.
double oneWay(std::vector<char>& buffer, std::size_t bytes, int reps, int rank) {
  std::vector<double> samples;
  for (int r = -reps / 4 - 1; r < reps; ++r) {  // negative r: warm-up
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(buffer.data(), static_cast<int>(bytes), MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buffer.data(), static_cast<int>(bytes), MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buffer.data(), static_cast<int>(bytes), MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buffer.data(), static_cast<int>(bytes), MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
    const double elapsed = (MPI_Wtime() - start) * 1e6 / 2;
    if (r >= 0) samples.push_back(elapsed);
  }
  return median(samples);
}

// Microseconds per byte of acc[i] += in[i] over doubles.
double reducePerByte(int reps) {
  const std::size_t n = std::size_t{1} << 20;
  std::vector<double> acc(n, 1.0), in(n, 0.5);
  std::vector<double> samples;
  for (int r = -2; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < n; ++i) acc[i] += in[i];
    const auto stop = std::chrono::steady_clock::now();
    if (r >= 0)
      samples.push_back(std::chrono::duration<double, std::micro>(stop - start).count() /
                        static_cast<double>(n * sizeof(double)));
  }
  volatile double sink = acc[n / 2];  // keep the loop
  (void)sink;
  return median(samples);
}

}  // namespace

const char* const kUsage =
    "usage: mpirun -np 2 collc-calibrate -o FILE [--quick]\n"
    "  Measure alpha (zero-byte ping-pong), beta (the slope over 64 KiB..4 MiB)\n"
    "  and gamma (summing doubles) on two ranks and write a model file for\n"
    "  collc cost, explain and compile (or run `collc calibrate -o FILE`).\n"
    "  --quick: fewer repetitions and sizes.\n";

int main(int argc, char** argv) {
  // --help before MPI_Init: it needs no mpirun.
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::fputs(kUsage, stdout);
      return 0;
    }
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::string output;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-o") == 0 && i + 1 < argc) output = argv[++i];
    else if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else {
      if (rank == 0) std::fprintf(stderr, "collc-calibrate: error: unknown argument '%s'\n", argv[i]);
      MPI_Finalize();
      return 2;
    }
  }
  if (size != 2 || output.empty()) {
    if (rank == 0)
      std::fprintf(stderr, "collc-calibrate: error: %s\n%s",
                   output.empty() ? "no output file (-o FILE)" : "run it on exactly 2 ranks", kUsage);
    MPI_Finalize();
    return 2;
  }
  const int reps = quick ? 5 : 50;
  const std::vector<std::size_t> sizes = quick ? std::vector<std::size_t>{65536, 262144}
                                               : std::vector<std::size_t>{65536, 262144, 1048576, 4194304};
  std::vector<char> buffer(sizes.back(), 1);
  const double alpha = oneWay(buffer, 0, reps, rank);
  std::vector<double> times;
  for (std::size_t s : sizes) times.push_back(oneWay(buffer, s, reps, rank));
  // Least squares t = a + b M over the large sizes.
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    mx += static_cast<double>(sizes[i]);
    my += times[i];
  }
  mx /= static_cast<double>(sizes.size());
  my /= static_cast<double>(sizes.size());
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    sxy += (static_cast<double>(sizes[i]) - mx) * (times[i] - my);
    sxx += (static_cast<double>(sizes[i]) - mx) * (static_cast<double>(sizes[i]) - mx);
  }
  const double beta = std::max(sxy / sxx, 1e-12);
  double worst = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    worst = std::max(worst, std::abs(times[i] - (my + beta * (static_cast<double>(sizes[i]) - mx))) / times[i]);
  const double gamma = rank == 0 ? reducePerByte(reps) : 0;

  int status = 0;
  if (rank == 0) {
    std::ofstream out(output);
    out << "# Measured by collc-calibrate on 2 ranks (" << (quick ? "quick, " : "") << reps
        << " repetitions per point).\n"
        << "# alpha: median one-way time of a zero-byte ping-pong; beta: least-squares\n"
        << "# slope over 64 KiB .. " << sizes.back() / 1024 << " KiB (largest relative residual "
        << worst * 100 << " %); gamma: median time per byte of summing doubles.\n"
        << "name = calibrated\n";
    out.precision(7);
    out << "alpha = " << alpha << "        # us per message\n"
        << "beta = " << beta << "        # us per byte (" << 1e-3 / beta << " GB/s)\n"
        << "gamma = " << gamma << "        # us per reduced byte\n";
    if (!out) {
      std::fprintf(stderr, "collc-calibrate: error: cannot write '%s'\n", output.c_str());
      status = 1;
    } else {
      std::printf("wrote %s: alpha = %.4g us, beta = %.4g us/B (%.3f GB/s), gamma = %.4g us/B\n", output.c_str(),
                  alpha, beta, 1e-3 / beta, gamma);
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
