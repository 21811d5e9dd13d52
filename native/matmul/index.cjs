module.exports = require("./build/Release/matmul.node");
