{
  "targets": [
    {
      "target_name": "matmul",
      "sources": ["matmul.cc"],
      "cflags_cc": ["-O3", "-march=native", "-ffp-contract=fast"],
      "cflags_cc!": ["-fno-exceptions"]
    }
  ]
}
