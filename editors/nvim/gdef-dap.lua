-- Debugging .gdef games in Neovim with nvim-dap (https://github.com/mfussenegger/nvim-dap).
-- Put this file at ~/.config/nvim/plugin/gdef-dap.lua, beside gdef.lua. Without nvim-dap it
-- does nothing.
--
-- :lua require('dap').continue() on a .gdef file debugs its game (docs/debugging.md). When the
-- moves run out, type moves such as place(1,1,X) in the REPL (:lua require('dap').repl.open()).
--
-- Another command for the adapter:  vim.g.gdef_dap_cmd = { '/path/to/venv/bin/gdef-dap' }
-- (or { 'python3', '-m', 'gdef_dap' }) before this file is loaded.

local ok, dap = pcall(require, 'dap')
if not ok then
  return
end

local cmd = vim.g.gdef_dap_cmd or { 'gdef-dap' }

dap.adapters.gdef = {
  type = 'executable',
  command = cmd[1],
  args = vim.list_slice(cmd, 2),
}

dap.configurations.gdef = {
  {
    type = 'gdef',
    request = 'launch',
    name = 'Debug game',
    program = '${file}',
  },
  {
    type = 'gdef',
    request = 'launch',
    name = 'Debug game with a move script',
    program = '${file}',
    moves = function()
      return vim.fn.input('Move script: ', vim.fn.expand('%:p:r') .. '.moves', 'file')
    end,
  },
}
