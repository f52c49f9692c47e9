"""Tools for attached phones, tablets and microcontrollers (the device block of resources/programs.toml).

Reading, logging and listing pass; installing, pushing, flashing and burning ask; what bricks a device for good,
takes its protections off, spies on its owner or hands it to a stranger blocks. Every case has a near miss of the
same program beside it.
"""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict

GATE = SafetyGate(default_policy())


def shell(command: str) -> str:
    got: Assessment = GATE.assess(action_from_dict({"type": "shell", "command": command}))
    return got.decision.value


ALLOW = [
    "adb start-server",
    "adb bugreport ./reports/",
    "adb shell dumpsys meminfo org.example.notes",
    "adb shell pm enable org.example.notes",
    "adb shell cmd package install-existing com.example.preloaded",
    "adb pull /sdcard/DCIM/Camera/IMG_0001.jpg",
    "adb pull /sdcard/Download/report.pdf ./out/",
    "fastboot reboot",
    "fastboot oem device-info",
    "esptool --chip esp32c6 merge-bin -o build/all.bin 0x0 build/boot.bin 0x10000 build/app.bin",
    "esptool -p /dev/ttyACM0 read-flash 0 0x400000 backup/flash.bin",
    "esptool.py dump_mem 0x3ff80000 8192 rtc.bin",
    "espefuse --port /dev/ttyACM1 summary",
    "espefuse --virt burn-key BLOCK_KEY2 key.bin XTS_AES_128_KEY --no-read-protect",
    "espsecure sign-data --version 2 --keyfile keys/signing.pem --output out/app-signed.bin out/app.bin",
    "heimdall detect",
    "heimdall download-pit --output galaxy.pit --no-reboot",
    "idevicename",
    "pymobiledevice3 syslog live -m Safari",
    "pymobiledevice3 crash pull ./crashes",
    "pymobiledevice3 developer dvt screenshot shots/home.png",
    "frida-ls -D usb /sdcard",
    "objection -g org.example.app explore -s 'android hooking list classes'",
    "avrdude -c dryrun -p attiny85 -U flash:w:build/main.hex:i",
    "openocd -f board/nucleo-f401re.cfg -c init -c 'flash banks' -c shutdown",
    "emulator -avd Phone_API_35 -no-snapshot-load",
    "edl printgpt --memory=emmc",
    "mtk r boot_a,vbmeta_a boot_a.img,vbmeta_a.img",
    "nrfjprog --readcode backup/nrf.hex",
    "bossac -i -p ttyACM0",
    "uuu -lsusb",
    "odin4 -l",
]

CONFIRM = [
    "adb install -r build/app-release.apk",
    "adb push ./media/clip.mp4 /sdcard/Movies/",
    "adb shell pm uninstall --user 0 com.example.preloaded.game",
    "adb shell pm grant org.example.camera android.permission.CAMERA",
    "adb pull /sdcard/notes.txt ~/.bashrc",
    "fastboot -s 0A1B2C flashing unlock",
    "fastboot -s 0A1B2C erase userdata",
    "fastboot flash boot boot-patched.img",
    "fastboot flash bootloader bootloader-oriole-slider-1.2.img",
    "heimdall flash --RECOVERY recovery.img --no-reboot",
    "heimdall flash --repartition --pit vendor-stock.pit --SYSTEM system.img",
    "espefuse burn-efuse DIS_USB_JTAG 1",
    "espefuse burn-key-digest keys/sb-digest.pem",
    "avrdude -c usbasp -p m328p -U hfuse:w:0xde:m",
    "avrdude -c usbasp -p m328p -U lock:w:0x3c:m",
    "openocd -f board/nucleo-f103rb.cfg -c init -c 'stm32f1x mass_erase 0' -c shutdown",
    "openocd -f board/nucleo-f103rb.cfg -c init -c 'stm32f1x lock 0' -c shutdown",
    "ideviceinstaller install ./build/Demo.ipa",
    "idevicebackup2 restore --system ~/Backups/phone",
    "idevicebackup2 encryption off hunter2 ~/Backups/phone",
    "objection -g org.example.app explore -s 'memory dump all app.dmp'",
    "objection -g org.example.app explore -s 'android sslpinning disable'",
    "scrcpy --video-source=camera --record=desk.mp4",
    "rpi-imager --cli --disable-verify os.img /dev/sdc",
    "odin4 -a AP_build.tar.md5",
    "edl w boot_a boot-patched.img",
    "mtk e metadata,userdata",
    "nrfjprog --program build/zephyr.hex --chiperase",
    "bossac -e -w -v -b build/firmware.bin",
    "stm32flash -w build/fw.bin -v /dev/ttyUSB1",
    "dfu-util -a 0 -D build/app.dfu",
    "sunxi-fel spiflash-write 0 u-boot-sunxi-with-spl.bin",
]

BLOCK = [
    "fastboot -s 0A1B2C flashing unlock_critical",
    "fastboot erase persist",
    "fastboot erase config",
    "fastboot flash vbmeta --disable-verity vbmeta.img",
    "fastboot -c androidboot.selinux=permissive boot boot.img",
    "fastboot flash bootloader bl-leaked-build.img",
    "heimdall flash --PIT pit-from-other-model.pit --repartition",
    "adb -s R58M123 disable-verity",
    "adb shell su -c 'setenforce permissive'",
    "adb -d shell settings put global verifier_verify_adb_installs 0",
    "adb shell su -c 'resetprop ro.boot.flash.locked 1'",
    "adb shell pm grant org.example.tracker android.permission.READ_CALL_LOG",
    "adb shell settings put secure enabled_accessibility_services org.example.tracker/.Watcher",
    "adb shell content query --uri content://sms/sent",
    "adb shell su -c 'cat /data/misc/wifi/WifiConfigStore.xml'",
    "adb shell pm uninstall --user 0 com.android.phone",
    "adb shell pm clear com.android.providers.telephony",
    "adb shell am broadcast -a android.intent.action.FACTORY_RESET",
    "adb shell su -c 'dd if=/dev/zero of=/dev/block/by-name/vbmeta'",
    "adb -s 198.51.100.7:5555 install payload.apk",
    "adb shell /data/local/tmp/frida-server --listen=0.0.0.0",
    "espefuse burn-key BLOCK_KEY1 fe.bin XTS_AES_128_KEY --no-write-protect",
    "espefuse --do-not-confirm burn-efuse SECURE_BOOT_EN 1",
    "avrdude -c usbasp -p attiny85 -U hfuse:w:0x5d:m",
    "openocd -f board/nucleo-f401re.cfg -c 'bindto 0.0.0.0'",
    "pymobiledevice3 restore update -i http://fw.example.net/device.ipsw",
    "ideviceinstaller install https://apps.example.top/signed/Game.ipa",
    "rpi-imager --repo http://198.51.100.9/os_list.json",
    "objection -g org.example.wallet explore -s 'ios keychain dump'",
    "scrcpy --no-window --video-source=camera --record=/tmp/.v.mkv",
    "mtk e frp",
    "edl e devinfo",
    "odin4 -b bootloader-unofficial-port.tar.md5",
]


@pytest.mark.parametrize("command", ALLOW)
def test_reads_listings_and_project_builds_pass(command: str) -> None:
    assert shell(command) == "allow"


@pytest.mark.parametrize("command", CONFIRM)
def test_installs_pushes_flashes_and_burns_ask(command: str) -> None:
    assert shell(command) == "confirm"


@pytest.mark.parametrize("command", BLOCK)
def test_bricking_unprotecting_spying_and_strangers_block(command: str) -> None:
    assert shell(command) == "block"


def test_local_repo_and_vendor_firmware_are_not_untrusted_sources() -> None:
    assert shell("rpi-imager --repo http://localhost:8080/os_list.json") == "allow"
    assert shell("pymobiledevice3 restore update -i https://updates.cdn-apple.com/x/device.ipsw") != "block"


def test_screen_reader_accessibility_service_is_not_stalkerware() -> None:
    got = shell("adb shell settings put secure enabled_accessibility_services "
                "com.google.android.marvin.talkback/com.google.android.marvin.talkback.TalkBackService")
    assert got == "confirm"
