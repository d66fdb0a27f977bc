// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The weights of a one-dimensional Gaussian, for separable convolutions.
enum GaussianKernel {
    /// The normalised Gaussian of standard deviation `sigma` over ±⌈3σ⌉ taps; `[1]` for a sigma
    /// that is not finite and positive.
    static func weights(sigma: Float) -> [Float] {
        guard sigma.isFinite, sigma > 0 else { return [1] }
        let radius = Int((3 * sigma).rounded(.up))
        let weights = (-radius...radius).map { offset in exp(-Float(offset * offset) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        return weights.map { $0 / total }
    }
}
