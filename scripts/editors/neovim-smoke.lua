-- Headless Neovim smoke test (run by scripts/ci.d/55-neovim.sh): open a broken
-- diagram with puml-lsp attached and wait for its E0103 diagnostic.
local server = os.getenv("PUML_LSP")
vim.cmd("edit " .. os.getenv("PUML_FILE"))
local buf = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({ name = "puml", cmd = { server }, root_dir = vim.fn.getcwd() })
vim.lsp.buf_attach_client(buf, client_id)
local ok = vim.wait(10000, function()
  return #vim.diagnostic.get(buf) > 0
end, 50)
local found = vim.diagnostic.get(buf)
for _, d in ipairs(found) do
  io.stdout:write(string.format("diagnostic line %d: [%s] %s\n", d.lnum + 1, tostring(d.code), d.message))
end
if ok and found[1] and found[1].code == "E0103" then
  io.stdout:write("neovim smoke: ok\n")
  vim.cmd("qa!")
else
  io.stdout:write("neovim smoke: FAILED\n")
  vim.cmd("cquit 1")
end
