#pragma once
// The word rows path of --gaussian and --unsharp (gaussian_words.cu), which
// gaussian.cu takes before its others where it fits: images whose rows
// are whole words, pixels of at most a word, radii up to
// kMaxGaussianWordsRadius (S <= 3, gaussian_weights.hpp) and no tables
// around the stage.
#include "cuda_launch.hpp"
#include "gaussian_weights.hpp"

namespace gpuimg {

bool fits_gaussian_words(const CudaStage& s, int r);
cudaError_t launch_gaussian_words(const CudaStage& s, int r);
// --unsharp's blur by the same path, its last step the unsharp mask's.
cudaError_t launch_unsharp_words(const CudaStage& s, int r, const Unsharp::Params& p);

}  // namespace gpuimg
