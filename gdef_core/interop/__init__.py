"""Adapters to the frameworks researchers already use: OpenSpiel (`interop.openspiel`) and
PettingZoo (`interop.pettingzoo`). Both number moves with `interop.actions` and observe with
`interop.observation`; they use only the public game API. Import the adapter you need: each
needs its framework installed (`pip install 'gdef[interop]'`).
"""
