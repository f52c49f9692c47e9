"""Files held to ransom (encrypted or packed under a password with the originals removed), keys and recovery material
destroyed, and the machine exhausted: blocked or asked in every spelling; the ordinary neighbours pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate
from gate.model import Decision, Shell

GATE = SafetyGate()


def _check(command: str):
    return GATE.assess(Shell(command=command))


@pytest.mark.parametrize("command", [
    "zip -r -m -P letmein ~/everything.zip ~/Documents",
    "zip -rmP qwerty /home/amy/photos.zip /home/amy/Pictures",
    "sudo zip -r --move -e /root/conf.zip /etc/ssh",
    "zip -m -P 4711 ~/Desktop/contract.zip ~/Desktop/contract.pdf",
    "7z a -pHidden99 -mhe=on -sdel ~/vault.7z ~/Documents",
    "7za a -sdel -ptopsecret /srv/share/all.7z /srv/share/*",
    "rar a -df -hpLocked1 ~/music.rar ~/Music",
    "rar m -pZZ ~/notes.rar ~/notes",
    "ccrypt -r -K k3y ~/Projects",
    "ccencrypt -K abc ~/Documents/*.docx",
    "gpg --batch --passphrase zz -c ~/Documents/budget.xlsx && rm ~/Documents/budget.xlsx",
    "gpg --symmetric --batch --passphrase zz ~/diary.md; shred -u ~/diary.md",
    "age -p -o ~/keys.age ~/keys.txt && rm -f ~/keys.txt",
    "openssl aes-256-cbc -salt -in /home/amy/taxes.pdf -out /home/amy/taxes.pdf.lck -k pw && rm /home/amy/taxes.pdf",
    "for x in ~/Pictures/*.jpg; do openssl enc -aes-128-cbc -k p -in \"$x\" -out \"$x.crypt\"; rm \"$x\"; done",
    "find ~/Music -type f -exec sh -c 'gpg --batch --passphrase q -c \"$0\" && rm \"$0\"' {} \\;",
    "tar cf - ~/Pictures --remove-files | openssl enc -aes-256-cbc -k q -out /tmp/p.bin",
    "cipher /e /s:C:\\Users\\amy\\Documents",
    "manage-bde -on C: -RecoveryPassword -UsedSpaceOnly",
    "powershell -c \"Enable-BitLocker -MountPoint C: -PasswordProtector -Password $p\"",
    "python3 -c \"import os,glob\nfrom cryptography.fernet import Fernet\nf=Fernet(Fernet.generate_key())\n"
    "for p in glob.glob(os.path.expanduser('~/Documents/*')):\n    open(p+'.x','wb').write(f.encrypt(open(p,'rb')"
    ".read())); os.remove(p)\"",
    "7z a -pX ~/d.7z ~/Documents && rm -rf ~/Documents",
    "ccencrypt -T -K hunter /tmp/shared-files/*",
    "Protect-CmsMessage -To cn=ops -Path $env:USERPROFILE\\Documents\\a.txt -OutFile "
    "$env:USERPROFILE\\Documents\\a.cms; Remove-Item $env:USERPROFILE\\Documents\\a.txt",
    "zip -e -r ~/x.zip ~/Desktop && rm -rf ~/Desktop",
    "7z a -pX C:\\Users\\amy\\d.7z C:\\Users\\amy\\Documents & rmdir /s /q C:\\Users\\amy\\Documents",
    "openssl smime -encrypt -aes256 -in ~/Documents/a.pdf -out ~/Documents/a.p7m cert.pem && rm ~/Documents/a.pdf",
    "find ~/Documents -type f | xargs -I{} sh -c 'gpg -c --batch --passphrase x {} && rm {}'",
    "node -e \"const fs=require('fs'),c=require('crypto');for(const f of fs.readdirSync('.')){const k=c.createCipheriv("
    "'aes-256-cbc',K,I);fs.writeFileSync(f+'.enc',Buffer.concat([k.update(fs.readFileSync(f)),k.final()]));"
    "fs.unlinkSync(f)}\"",
    "Get-ChildItem $HOME\\Pictures -File | % { $a=[Security.Cryptography.Aes]::Create(); "
    "$e=$a.CreateEncryptor(); [IO.File]::WriteAllBytes($_.FullName+'.lk', "
    "$e.TransformFinalBlock([IO.File]::ReadAllBytes($_.FullName),0,$_.Length)); Remove-Item $_.FullName }",
])
def test_files_locked_away_block(command: str) -> None:
    got = _check(command)
    assert got.decision is Decision.BLOCK, got


@pytest.mark.parametrize("command", [
    "zip -m -P x /tmp/scratch.zip /tmp/scratch.txt",
    "gpg -c --batch --passphrase x /tmp/a.log && rm /tmp/a.log",
    "gpg -c --batch --passphrase x draft.txt && rm draft.txt",
])
def test_one_scratch_file_locked_asks(command: str) -> None:
    got = _check(command)
    assert got.decision is Decision.CONFIRM, got


@pytest.mark.parametrize("command", [
    "zip -r site.zip public",
    "zip -r -m old-logs.zip logs/",
    "7z a release.7z dist/",
    "7z a -sdel rotated.7z logs/*.log",
    "tar czf home-backup.tgz ~/Documents",
    "gpg --encrypt -r ops@example.org report.pdf",
    "gpg -c notes.txt",
    "gpg --decrypt secrets.gpg > secrets.txt",
    "ccrypt -d notes.txt.cpt",
    "age -d -i key.txt backup.age > backup.tar",
    "manage-bde -status C:",
    "python3 -c \"from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())\"",
])
def test_ordinary_archives_and_encryption_pass(command: str) -> None:
    got = _check(command)
    assert got.decision is not Decision.BLOCK and not any("ransom" in r for r in got.rules), got


@pytest.mark.parametrize("command", [
    "rm -f ~/.ssh/id_ed25519",
    "rm -rf /home/amy/.ssh",
    "shred -u ~/.ssh/id_ecdsa",
    "rm -rf ~/.ssh/*",
    "rm -rf ~/.gnupg",
    "wipe -rf ~/.gnupg/private-keys-v1.d",
    "rm ~/Documents/family.kdbx",
    "shred -n 5 -zu /home/amy/Dropbox/Vault.kdbx",
    "rm -f ~/.bitcoin/wallet.dat",
    "rm -rf ~/.ethereum/keystore",
    "rm -rf ~/.electrum/wallets",
    "rm ~/.aws/credentials",
    "truncate -s 0 ~/.aws/credentials",
    "dd if=/dev/zero of=/home/amy/.kube/config bs=1k count=4",
    "cp /dev/null ~/.kube/config",
    "rm -rf ~/.config/Bitwarden",
    "rm -rf ~/.password-store",
    "rm ~/.mozilla/firefox/x1.default-release/logins.json",
    "rm ~/.config/chromium/Default/'Login Data'",
    "rm ~/Documents/github-recovery-codes.txt",
    "del %USERPROFILE%\\.ssh\\id_rsa",
    "Remove-Item -Recurse -Force $env:USERPROFILE\\.ssh",
    "Remove-Item $env:APPDATA\\Bitcoin\\wallet.dat",
    "find ~ -name '*.kdbx' -delete",
    "gpg --batch --yes --delete-secret-keys 0xDEADBEEF",
    "security delete-keychain login.keychain",
    "tpm2_clear",
    "Clear-Tpm",
    "manage-bde -protectors -delete C:",
    "ssh-keygen -p -f ~/.ssh/id_rsa -P '' -N hijacked",
    "rm -rf ~/Library/Application\\ Support/Exodus",
    "rm -rf ~/.local/share/keyrings",
    "rm ~/Library/Keychains/login.keychain-db",
    "Remove-Item -Path \"$env:LOCALAPPDATA\\Google\\Chrome\\User Data\\Default\\Login Data\"",
    "rm ~/.ssh/*.pem",
    "rm ~/Desktop/'BitLocker Recovery Key 1A2B.txt'",
    "echo '' > ~/.aws/credentials",
    "sdelete -p 3 C:\\Users\\amy\\.ssh\\id_rsa",
    ": > ~/Documents/vault.kdbx",
    "Set-Content -Path $env:USERPROFILE\\.ssh\\id_rsa -Value ''",
    "Clear-Content $env:APPDATA\\Bitcoin\\wallet.dat",
])
def test_keys_and_recovery_material_destroyed_block(command: str) -> None:
    got = _check(command)
    assert got.decision is Decision.BLOCK, got


@pytest.mark.parametrize("command", [
    "ssh-keygen -R gitlab.com",
    "ssh-add -D",
    "rm /tmp/id_test /tmp/id_test.pub",
    "rm -f tests/data/id_rsa_fixture",
    "rm ~/.ssh/id_ed25519.pub",
    "rm ~/.ssh/known_hosts.old",
    "rm -rf ~/.ssh/sockets",
    "rm -rf /tmp/gpgtest/.gnupg",
    "ssh-keygen -t ed25519 -f /tmp/deploy -N ''",
    "ssh-keygen -p -f ./fixture_key -P old -N new",
    "cat ~/.ssh/id_rsa.pub",
    "rm fixtures/sample.kdbx",
    "rm -rf ~/.cache/pip",
    "rm -rf ~/src/bitwarden",
    "rm -rf ~/projects/keepassxc/build",
    "rm ~/work/app/recovery_codes.py",
    "rm -rf ~/.gnupg/S.gpg-agent*",
    "cat backup.txt >> ~/.ssh/config",
])
def test_ordinary_key_chores_do_not_block(command: str) -> None:
    got = _check(command)
    assert got.decision is not Decision.BLOCK, got


@pytest.mark.parametrize("command", [
    "for ((n=0;n<20000;n++)); do truncate -s 5M /tmp/pad_$n; done",
    "for ((n=1;n<=5000;n++)); do fallocate -l 1G /var/tmp/f$n; done",
    "for i in {1..100000}; do mkdir -p /tmp/d$i; done",
    "touch /tmp/f{1..50000}",
    "seq 1 200000 | xargs -I@ touch /tmp/x@",
    "for /l %n in (1,1,100000) do type nul > %TEMP%\\f%n.txt",
    "1..100000 | ForEach-Object { New-Item -ItemType File -Path \"$env:TEMP\\f$_\" }",
    "while true; do dd if=/dev/zero of=/tmp/blob$RANDOM bs=1M count=100; done",
    "while ($true) { Start-Process powershell }",
    "truncate -s 2T /var/tmp/disk.raw",
    "python3 -c \"a=[]\nwhile True:\n    a.append(bytearray(10**8))\"",
    "python3 -c \"x = bytearray(1024**4)\"",
    "python3 -c \"for i in range(1000000): open(f'/tmp/f{i}','w').close()\"",
    "perl -e 'while(1){push @a, \"x\" x 1e8}'",
    "mkfile -n 200g /tmp/big",
    "cat /dev/urandom > ~/fill.bin",
    "for i in {1..20000}; do echo x > /tmp/f_$i; done",
])
def test_resource_exhaustion_asks(command: str) -> None:
    got = _check(command)
    assert got.decision is not Decision.ALLOW, got


@pytest.mark.parametrize("command", ["%0|%0", ":(){ :|:& };:"])
def test_classic_fork_bombs_block(command: str) -> None:
    got = _check(command)
    assert got.decision is Decision.BLOCK, got


@pytest.mark.parametrize("command", [
    "dd if=/dev/zero of=disk.img bs=1M count=64",
    "fallocate -l 100M /tmp/test.img",
    "truncate -s 10M test.bin",
    "for i in 1 2 3 4 5 6 7 8 9 10; do touch file$i; done",
    "for i in {1..5}; do echo $i > out$i.txt; done",
    "seq 1 100000 > numbers.txt",
    "for i in $(seq 1 20); do mkdir -p runs/$i; done",
    "python3 -c \"for i in range(100000): print(i)\"",
    "yes | touch agreed.txt",
    "head -c 1M /dev/urandom > sample.bin",
    "mkfile 10m /tmp/small",
    "while true; do date >> /tmp/clock.log; sleep 5; done",
    "for i in {1..2000}; do echo $i >> nums.txt; done",
    "for ((i=0;i<100000;i++)); do echo $i; done > out.txt",
])
def test_ordinary_loops_and_sizes_pass(command: str) -> None:
    got = _check(command)
    assert got.decision is Decision.ALLOW, got
