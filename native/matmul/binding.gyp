{
  "targets": [
    {
      "target_name": "matmul",
      "sources": ["matmul.cc"],
      "cflags_cc": ["-O3", "-ffp-contract=fast"],
      "cflags_cc!": ["-fno-exceptions"],
      "xcode_settings": {
        "OTHER_CPLUSPLUSFLAGS": ["-O3", "-ffp-contract=fast"],
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES"
      }
    }
  ]
}
